// SIGBUS from SQLite's shared memory made immutable under the process.
//
// SQLite maps the store's `-shm` file shared and writes it on every transaction, readers
// included. Once the file is `chattr +i` (or `+a`), ext4 answers a write to a page written
// back since with SIGBUS. A check before each write cannot close the window between the
// check and the write, so the handler moves the faulting mapping to private memory with
// the same bytes, and the write goes on there. The process keeps its own copy of the
// WAL index; the WAL itself is a plain file, so what commits lands in it, and the next
// process to open the store alone rebuilds the index from it. The caller notices the
// file is frozen and stops writing. A SIGBUS anywhere else goes to the handler installed
// before this one (Swift's backtracer, or the default action).
//
// Only async-signal-safe calls: open, read, close, mmap, mremap, sigaction.
#define _GNU_SOURCE
#include "shim.h"
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <stdint.h>

static volatile sig_atomic_t diverted_count;
static volatile int handler_lock;
enum { max_diverted = 64 };
static uintptr_t diverted_start[max_diverted], diverted_end[max_diverted];
static int diverted_used;
static struct sigaction previous;

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/// Parses one /proc/self/maps line: `start-end perms offset dev inode   path`.
static int parse_line(const char *line, size_t n, uintptr_t *start, uintptr_t *end, int *shared, const char **path, size_t *path_n) {
    size_t i = 0;
    uintptr_t a = 0, b = 0;
    int v;
    while (i < n && (v = hex_value(line[i])) >= 0) { a = a * 16 + (uintptr_t)v; i++; }
    if (i >= n || line[i] != '-') return 0;
    i++;
    while (i < n && (v = hex_value(line[i])) >= 0) { b = b * 16 + (uintptr_t)v; i++; }
    if (i + 5 >= n || line[i] != ' ') return 0;
    *shared = line[i + 4] == 's' && line[i + 2] == 'w';
    // Skip perms, offset, device and inode: four fields, then the spaces before the path.
    int fields = 0;
    while (i < n && fields < 5) {
        while (i < n && line[i] == ' ') i++;
        if (fields < 4) while (i < n && line[i] != ' ') i++;
        fields++;
    }
    *start = a;
    *end = b;
    *path = line + i;
    *path_n = n - i;
    return 1;
}

static int ends_with_shm(const char *path, size_t n) {
    static const char suffix[] = "-shm";
    return n >= 4 && memcmp(path + n - 4, suffix, 4) == 0;
}

/// The shared `-shm` mapping holding `address`; 1 when found.
static int find_shm_mapping(uintptr_t address, uintptr_t *start, uintptr_t *end) {
    static char chunk[4096], line[4096 + 512];
    size_t line_n = 0;
    int found = 0, overflow = 0;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got <= 0) break;
        for (ssize_t k = 0; k < got && !found; k++) {
            char c = chunk[k];
            if (c != '\n') {
                if (line_n < sizeof line) line[line_n++] = c; else overflow = 1;
                continue;
            }
            uintptr_t a, b;
            int shared;
            const char *path;
            size_t path_n;
            if (!overflow && parse_line(line, line_n, &a, &b, &shared, &path, &path_n)
                && address >= a && address < b && shared && ends_with_shm(path, path_n)) {
                *start = a;
                *end = b;
                found = 1;
            }
            line_n = 0;
            overflow = 0;
        }
        if (found) break;
    }
    close(fd);
    return found;
}

static int already_diverted(uintptr_t address) {
    for (int k = 0; k < diverted_used; k++)
        if (address >= diverted_start[k] && address < diverted_end[k]) return 1;
    return 0;
}

static void on_sigbus(int signal, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    while (__atomic_exchange_n(&handler_lock, 1, __ATOMIC_ACQUIRE)) {}
    uintptr_t start, end;
    int handled = already_diverted(address);
    if (!handled && diverted_used < max_diverted && find_shm_mapping(address, &start, &end)) {
        size_t length = end - start;
        void *copy = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (copy != MAP_FAILED) {
            memcpy(copy, (const void *)start, length);
            if (mremap(copy, length, length, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)start) != MAP_FAILED) {
                diverted_start[diverted_used] = start;
                diverted_end[diverted_used] = end;
                diverted_used++;
                diverted_count = diverted_count + 1;
                handled = 1;
            } else {
                munmap(copy, length);
            }
        }
    }
    __atomic_store_n(&handler_lock, 0, __ATOMIC_RELEASE);
    if (!handled) {
        // Not ours: the fault comes again under the handler that was there before (Swift's
        // backtracer, or the default action), where it happened.
        sigaction(signal, &previous, NULL);
    }
}

int csystemclock_guard_shared_memory(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    struct sigaction current;
    if (sigaction(SIGBUS, NULL, &current) != 0) return -1;
    if (current.sa_sigaction == on_sigbus) return 0;
    previous = current;
    return sigaction(SIGBUS, &action, NULL);
}

int csystemclock_shared_memory_diverted(void) {
    return (int)diverted_count;
}
