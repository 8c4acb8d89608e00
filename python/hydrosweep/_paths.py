"""The rule for every file hydrosweep writes (host/base/fileio.h hs_check_output_file, the same rule
in Python): an existing regular file, which may be replaced, or a new name in an existing,
writable directory. A symbolic link (even to a regular file), a directory, a FIFO, a device or
a socket is refused: a file is never written through a link, and a link is never replaced. So
is a regular file with a second hard link or of another owner (its other names would be
written too)."""
import os
import stat


class OutputPathError(ValueError):
    """An output path that breaks the rule (the message says which part and why)."""


def check_output_path(path, what="output"):
    """Raises OutputPathError unless `path` may be written by the rule above."""
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not path:
        raise OutputPathError("no %s given" % what)
    if "\0" in path:
        raise OutputPathError("the %s name contains a NUL character" % what)
    if path.endswith("/"):
        raise OutputPathError("%s: the %s must name a file, not a directory" % (path, what))
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        d = os.path.dirname(path) or "."
        if not os.path.isdir(d):
            raise OutputPathError("%s: cannot write the %s: directory %s does not exist" % (path, what, d))
        if not os.access(d, os.W_OK | os.X_OK):
            raise OutputPathError("%s: cannot write the %s: directory %s is not writable" % (path, what, d))
        return
    if stat.S_ISLNK(st.st_mode):
        raise OutputPathError("%s: the %s is a symbolic link (to %r): hydrosweep never writes through a "
                              "link or replaces one; name the file itself, or remove the link"
                              % (path, what, os.readlink(path)[:120]))
    if stat.S_ISDIR(st.st_mode):
        raise OutputPathError("%s: the %s is a directory: name a file" % (path, what))
    if not stat.S_ISREG(st.st_mode):
        raise OutputPathError("%s: the %s is not a regular file (a FIFO, device or socket): hydrosweep "
                              "writes only regular files" % (path, what))
    _refuse_shared(path, what, st)


def _refuse_shared(path, what, st):
    """host/base/fileio.c's refuse_shared: a second hard link, or another owner."""
    if st.st_nlink > 1:
        raise OutputPathError("%s: the %s has %d hard links: writing it would change the file its other "
                              "names share; hydrosweep writes only a file it alone names" % (path, what, st.st_nlink))
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise OutputPathError("%s: the %s belongs to another user (uid %d): hydrosweep replaces only its "
                              "user's own files" % (path, what, st.st_uid))


def open_output(path, what="output"):
    """The binary file object of `path` for writing, by the rule above: created or truncated,
    opened with O_NOFOLLOW (a link put there meanwhile is refused) and checked to be a regular
    file on the open descriptor."""
    check_output_path(path, what)
    # truncated only once the open file is known to be ours alone
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        raise OutputPathError("%s: cannot write the %s: %s" % (path, what, e.strerror))
    st = os.fstat(fd)
    try:
        if not stat.S_ISREG(st.st_mode):
            raise OutputPathError("%s: the %s is not a regular file" % (path, what))
        _refuse_shared(path, what, st)
        os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "wb")
