/* fileio.h -- host-internal file helpers shared by the loaders, the results writer and the
 * CLI: bounded reads of input files that never block (FIFOs, devices, sockets and
 * directories are refused before a byte is read), checks of output paths before any work is
 * done, an exclusive lock on a file being written, and I/O errors that carry strerror.
 * Not part of the public API. */
#ifndef HS_HOST_FILEIO_H
#define HS_HOST_FILEIO_H

#include <stddef.h>
#include <stdio.h>

#include "hs/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest model or sweep file read (docs/model-format.md, docs/sweep-format.md): far
 * above any real model (the shipped ones are a few KiB), far below what a runaway input
 * (/dev/zero, a log file named by mistake) would make us allocate. */
#define HS_MAX_INPUT_BYTES ((size_t)16 << 20)

/* "a directory", "a FIFO (named pipe)", "a character device", "a block device", "a socket",
 * "a regular file" for an st_mode. */
const char *hs_file_kind(unsigned long mode);

/* Reads the regular file path (what: "model file", "sweep file") into a NUL-terminated heap
 * buffer *text of *len bytes (len may be NULL). The file is opened with O_NONBLOCK and
 * checked with fstat before reading, so a FIFO or device never blocks and is refused; a
 * directory is refused; more than max bytes is refused. HS_ERR_IO with file = path. */
int hs_read_input(const char *path, const char *what, size_t max, char **text, size_t *len,
                  hs_error *err);

/* A regular file that can be opened for reading (what names it in the message); refuses
 * directories, FIFOs and devices without opening them in a blocking way. HS_ERR_IO. */
int hs_check_input_file(const char *path, const char *what, hs_error *err);

/* The rule for every path hydrosweep writes (results, their .part, CSVs, merge outputs, the
 * simulate CSV, plots, cache entries): an existing regular file, which may be replaced, or a
 * new name in an existing, writable directory. A symbolic link (even to a regular file), a
 * directory, a FIFO, a device or a socket is refused: a file is never written through a link,
 * and a link is never replaced by a file. So is a regular file with a second hard link or of
 * another owner (its other names would be written too). HS_ERR_ARG naming path and what. */
int hs_check_output_file(const char *path, const char *what, hs_error *err);

/* Opens (creating if needed, never truncating; never through a symbolic link: O_NOFOLLOW)
 * path and takes an exclusive non-blocking flock on it, making sure the lock is on the file now at path (not on one renamed away
 * meanwhile). *fd receives the descriptor holding the lock (close it to release), *created
 * whether this call created the file. Another holder: HS_ERR_ARG "is being written by
 * another process". */
int hs_lock_file(const char *path, const char *what, int *fd, int *created, hs_error *err);

/* 0 if the locked descriptor fd still is the file at path (not replaced, renamed or
 * removed by another process), else HS_ERR_IO with the reason. */
int hs_lock_check(int fd, const char *path, hs_error *err);

/* Opens path for writing a text output (truncating it), by the rule of hs_check_output_file
 * (a regular file or a new name; never through a link: O_NOFOLLOW, checked again on the open
 * descriptor). NULL with *err set (HS_ERR_ARG) on failure. */
FILE *hs_open_output(const char *path, const char *what, hs_error *err);

/* Flushes and closes f (not stdout/stderr: those are flushed only); HS_ERR_IO naming path
 * with strerror if any write, the flush or the close failed. saved_errno: an errno already
 * seen on a failed write (0 if none). */
int hs_close_output(FILE *f, const char *path, int saved_errno, hs_error *err);

/* An output written whole or not at all (a CSV, a rendered circuit): written to PATH.part,
 * which takes PATH's place only once every byte is written and synced; an existing file at
 * PATH stays as it was until then, and a failed or abandoned output leaves no .part behind. */
typedef struct hs_output {
    FILE *f; /* write here */
    char *path, *tmp; /* the final name, PATH.part */
} hs_output;
/* Opens PATH.part by hs_open_output's rule, PATH checked by it too. HS_ERR_ARG/HS_ERR_IO. */
int hs_output_begin(hs_output *o, const char *path, const char *what, hs_error *err);
/* Flushes, syncs and closes the .part and renames it to PATH; on any failure (saved_errno: an
 * errno of a write already seen, 0 if none) the .part is removed and the error names PATH. */
int hs_output_commit(hs_output *o, int saved_errno, hs_error *err);
/* Closes and removes the .part (nothing at PATH changes). */
void hs_output_abandon(hs_output *o);

/* 1 if both paths exist and are the same file (after links), else 0. */
int hs_same_file(const char *a, const char *b);

/* The number of threads a CPU backend may be asked for: 4 x the online CPUs, at least 4, at
 * most 1024 (more threads than that only cost memory and, in libgomp, can crash). */
int hs_max_threads(void);

/* The memory this process may still use in bytes (0 if unknown): the least of this machine's
 * physical memory, its cgroup's limit (memory.max less memory.current) and its address-space
 * limit (ulimit -v) less what it has mapped. *who says which, to follow "more than" in a
 * message ("this machine has", "this process may still map (ulimit -v)", ...). */
double hs_mem_available(const char **who);

/* "12.3 GB" style size of bytes into buf. Returns buf. */
const char *hs_fmt_bytes(double bytes, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
