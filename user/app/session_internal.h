/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the files of the live session share and nobody else needs: the
 * observer, one session's state, and the steps each file provides.  The
 * public face is session.h; this stays inside user/app/.
 */
#ifndef SO_SESSION_INTERNAL_H
#define SO_SESSION_INTERNAL_H

/* signals.c: Ctrl-C and SIGTERM end the session (session_interrupted()),
 * a closed reader does not kill us. */
void signals_catch(void);

#endif /* SO_SESSION_INTERNAL_H */
