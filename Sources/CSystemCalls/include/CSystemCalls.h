#ifndef C_SYSTEM_CALLS_H
#define C_SYSTEM_CALLS_H

/// Linux system calls that Swift cannot reach through Glibc (variadic `syscall`, `_GNU_SOURCE` declarations).

/// openat2(2) with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: opens `path` relative to `directory` and fails
/// (EXDEV) when resolving it, symbolic links included, would leave `directory`. Returns the descriptor, or -1 with
/// errno set (ENOSYS or EPERM where the kernel or a sandbox does not offer openat2).
int csystem_open_beneath(int directory, const char *path, int flags);

#endif
