// What mapping memory costs on this machine (BENCHMARKS.md, issue 20): 1 GiB of anonymous memory
// touched for the first time with 4 KiB pages, touched again, with transparent huge pages, and
// after MADV_POPULATE_WRITE. Build and run: gcc -O2 -o /tmp/first-touch tools/bench/first-touch.c && /tmp/first-touch
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static const size_t GIB = 1UL << 30;
static const size_t HUGE = 2UL << 20;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static char *map(size_t n) {
    char *p = mmap(NULL, n + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return NULL;
    }
    return (char *)(((unsigned long)p + HUGE - 1) & ~(HUGE - 1));
}

int main(void) {
    char *a = map(GIB);
    if (!a) return 1;
    madvise(a, GIB, MADV_NOHUGEPAGE);
    double t0 = now();
    memset(a, 1, GIB);
    double t1 = now();
    memset(a, 2, GIB);
    double t2 = now();
    printf("4 KiB pages, first touch:        %.2f s per GiB\n", t1 - t0);
    printf("4 KiB pages, touched again:      %.3f s per GiB\n", t2 - t1);
    munmap(a, GIB);

    char *h = map(GIB);
    if (!h) return 1;
    madvise(h, GIB, MADV_HUGEPAGE);
    t0 = now();
    memset(h, 1, GIB);
    t1 = now();
    printf("huge pages (madvise), first touch: %.2f s per GiB\n", t1 - t0);
    munmap(h, GIB);

    char *q = map(GIB);
    if (!q) return 1;
    madvise(q, GIB, MADV_NOHUGEPAGE);
    t0 = now();
    int rc = madvise(q, GIB, MADV_POPULATE_WRITE);
    t1 = now();
    memset(q, 1, GIB);
    t2 = now();
    if (rc == 0) {
        printf("MADV_POPULATE_WRITE:             %.2f s per GiB, then first write %.2f s per GiB\n",
               t1 - t0, t2 - t1);
    } else {
        printf("MADV_POPULATE_WRITE not supported by this kernel\n");
    }
    return 0;
}
