/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The tool's name and version, as --version prints it and a trace's
 * SESSION record stores it (struct so_session_info.tool).  Defined once
 * so that the two cannot disagree; module/dkms.conf and the man page
 * carry the same number for their own readers.
 */
#ifndef SO_VERSION_H
#define SO_VERSION_H

#define SO_VERSION	"0.1"
#define SO_TOOL_VERSION	"sysfs-observe " SO_VERSION

#endif /* SO_VERSION_H */
