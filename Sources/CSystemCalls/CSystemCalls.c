#define _GNU_SOURCE
#include "CSystemCalls.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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

int csystem_pipe2(int descriptors[2], int flags) {
    return pipe2(descriptors, flags);
}

int csystem_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *directory) {
    return posix_spawn_file_actions_addchdir_np(actions, directory);
}

int csystem_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int csystem_set_not_dumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

extern char **environ;

/// The bounds of the environment block the kernel placed at start (fields 50 and 51 of /proc/self/stat).
static int environment_block(unsigned long *start, unsigned long *end) {
    char buffer[4096];
    int descriptor = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -1;
    ssize_t count = read(descriptor, buffer, sizeof buffer - 1);
    close(descriptor);
    if (count <= 0) return -1;
    buffer[count] = 0;
    char *cursor = strrchr(buffer, ')');
    if (cursor == NULL) return -1;
    // Field 3 (the state) follows the command's closing parenthesis.
    int field = 2;
    unsigned long values[2] = {0, 0};
    char *position = NULL;
    for (char *token = strtok_r(cursor + 1, " ", &position); token != NULL; token = strtok_r(NULL, " ", &position)) {
        field++;
        if (field == 50) values[0] = strtoul(token, NULL, 10);
        if (field == 51) { values[1] = strtoul(token, NULL, 10); break; }
    }
    if (field != 51 || values[0] == 0 || values[1] <= values[0]) return -1;
    *start = values[0];
    *end = values[1];
    return 0;
}

void csystem_scrub_environment_block(void) {
    unsigned long start = 0, end = 0;
    if (environment_block(&start, &end) != 0) return;
    for (char **entry = environ; entry != NULL && *entry != NULL; entry++) {
        unsigned long address = (unsigned long)*entry;
        // Only the kernel's block: a string setenv allocated belongs to the C library.
        if (address < start || address >= end) continue;
        char *copy = strdup(*entry);
        if (copy == NULL) return;
        *entry = copy;
    }
    // The whole block, so a variable unset before (its pointer gone from environ) is wiped too.
    memset((void *)start, 0, end - start);
}

int csystem_peer_uid(int socket, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

void csystem_line_buffer_standard_output(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

int csystem_release_free_memory(void) {
    return malloc_trim(0);
}
