#ifndef C_SYSTEM_CALLS_H
#define C_SYSTEM_CALLS_H

/// Linux system calls that Swift cannot reach through Glibc (variadic `syscall`, `_GNU_SOURCE` declarations).

/// openat2(2) with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: opens `path` relative to `directory` and fails
/// (EXDEV) when resolving it, symbolic links included, would leave `directory`. Returns the descriptor, or -1 with
/// errno set (ENOSYS or EPERM where the kernel or a sandbox does not offer openat2).
int csystem_open_beneath(int directory, const char *path, int flags);

#include <spawn.h>

/// pipe2(2): a pipe whose ends carry `flags` (O_CLOEXEC) from the start.
int csystem_pipe2(int descriptors[2], int flags);

/// posix_spawn_file_actions_addchdir_np: the child starts in `directory` (glibc 2.29).
int csystem_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *directory);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `lowest` up (glibc 2.34).
int csystem_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// The user id of the process that called listen(2) on the Unix socket connected as `socket` (SO_PEERCRED); 0 on
/// success, -1 with errno set.
int csystem_peer_uid(int socket, unsigned int *uid);

/// prctl(PR_SET_DUMPABLE, 0): processes of the same user can no longer read this one's memory, environment or
/// descriptors through /proc, nor attach a debugger; core dumps are off.
int csystem_set_not_dumpable(void);

/// Moves every environment variable into memory of its own and zeroes the block the kernel placed at start,
/// which is what /proc/PID/environ shows: getenv keeps working, the block reads as zeros.
void csystem_scrub_environment_block(void);

/// Makes standard output line-buffered (C's `stdout`, which Swift 6 cannot name safely): each line printed reaches a
/// file or pipe at once, so a program stopped or crashed keeps what it printed.
void csystem_line_buffer_standard_output(void);

/// malloc_trim(0): gives the free pages of every malloc arena back to the system, after many small blocks were freed
/// at once (which glibc otherwise keeps for later allocations). Returns whether any memory was released.
int csystem_release_free_memory(void);

#endif
