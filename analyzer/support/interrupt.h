/* What a run interrupted by SIGINT, SIGTERM or SIGHUP removes before it dies: the temporaries of
 * the outputs it was writing (atomic_file.h) and its preamble directory (frontend/pch.h). A
 * registry of live paths, read by an async-signal-safe handler that then re-raises the signal with
 * its default action, so the exit status still says which signal ended the run. */
#ifndef GM_INTERRUPT_H
#define GM_INTERRUPT_H

/* Installs the handler for each of those signals that is not ignored (a background job's SIGINT
 * stays ignored). Once, at start. */
void gm_interrupt_install(void);

/* Registers path (a file, or a directory of files) to remove on a signal; the
 * string must stay valid until gm_interrupt_forget. Returns the slot, or -1 when the registry is
 * full (the path is then left behind by a signal, as before). Thread-safe. */
int gm_interrupt_remember(const char *path);
void gm_interrupt_forget(int slot);

/* Removes the files directly in dir, then dir itself (a preamble directory holds no
 * subdirectory). Async-signal-safe. Returns 0 when dir is gone. */
int gm_remove_flat_dir(const char *dir);

#endif
