#define _GNU_SOURCE
#include "CSystemCalls.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifdef __linux__
#include <linux/openat2.h>
#endif

int csystem_open_beneath(int directory, const char *path, int flags) {
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}
