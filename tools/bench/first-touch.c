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

/* 1 GiB of fresh anonymous memory, 2 MiB aligned, with madvise(advice); NULL on failure. */
static char *map_gib(int advice) {
    char *p = mmap(NULL, GIB + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return NULL;
    }
    char *aligned = (char *)(((unsigned long)p + HUGE - 1) & ~(HUGE - 1));
    madvise(aligned, GIB, advice);
    return aligned;
}

/* Seconds to write every byte of the GiB at p. */
static double fill(char *p, int value) {
    double t0 = now();
    memset(p, value, GIB);
    return now() - t0;
}

int main(void) {
    /* each mapping stays until exit, so that no measurement reuses another's pages */
    char *a = map_gib(MADV_NOHUGEPAGE);
    if (!a) return 1;
    printf("4 KiB pages, first touch:        %.2f s per GiB\n", fill(a, 1));
    printf("4 KiB pages, touched again:      %.3f s per GiB\n", fill(a, 2));

    char *h = map_gib(MADV_HUGEPAGE);
    if (!h) return 1;
    printf("huge pages (madvise), first touch: %.2f s per GiB\n", fill(h, 1));

    char *q = map_gib(MADV_NOHUGEPAGE);
    if (!q) return 1;
    double t0 = now();
    int rc = madvise(q, GIB, MADV_POPULATE_WRITE);
    double populate = now() - t0;
    if (rc == 0) {
        printf("MADV_POPULATE_WRITE:             %.2f s per GiB, then first write %.2f s per GiB\n",
               populate, fill(q, 1));
    } else {
        printf("MADV_POPULATE_WRITE not supported by this kernel\n");
    }
    return 0;
}
