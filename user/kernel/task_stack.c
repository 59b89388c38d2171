// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * A task's kernel stack as it is now, through the task iterator
 * (iter_task_stack): what a deadlock report prints for a task whose wait
 * came without one (a live session takes none at a mutex wait).  A task
 * in a deadlock stays where it waits, so this is the stack of the wait
 * itself.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel/loader_int.h"
#include "observe.skel.h"

/* The iterator's link: made the first time, kept with the others. */
static struct bpf_link *task_iter_link(struct so_loader *l)
{
	struct bpf_link *link;

	if (l->task_iter)
		return l->task_iter;
	if (l->nr_links == SO_MAX_LINKS) {
		errno = ENOSPC;
		return NULL;
	}
	link = bpf_program__attach_iter(l->skel->progs.iter_task_stack, NULL);
	if (!link)
		return NULL;
	l->links[l->nr_links++] = link;
	l->task_iter = link;
	return link;
}

int loader_task_stack(struct so_loader *l, uint32_t tid,
		      uint64_t frames[SO_KSTACK_DEPTH])
{
	const size_t size = SO_KSTACK_DEPTH * sizeof(frames[0]);
	struct bpf_link *link;
	size_t got = 0;
	ssize_t n;
	int fd;

	if (!l->skel || !l->skel->bss || !tid)
		return -EINVAL;
	link = task_iter_link(l);
	if (!link)
		return -errno;
	l->skel->bss->stack_tid = tid;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0)
		return -errno;
	/* One record at most: the whole buffer, zeroes past the frames;
	 * none when the task no longer waits. */
	while (got < size &&
	       (n = read(fd, (char *)frames + got, size - got)) > 0)
		got += (size_t)n;
	close(fd);
	memset((char *)frames + got, 0, size - got);
	return 0;
}
