// Do two busy threads slow each other down on this machine? One worker per process, run alone and then
// two at once; if the two vCPUs were hyper-threads of one core, the integer loop would slow down too.
// Kinds: "alu" (xorshift-multiply chain, registers only), "cache" (dependent random reads in 1 MiB: L2),
// "mem" (dependent random reads in 256 MiB: DRAM). Prints the kind and the seconds the work took.
//
//   gcc -O2 -o /tmp/core-sharing tools/bench/core-sharing.c
//   /tmp/core-sharing alu 1500000000; (/tmp/core-sharing alu 1500000000 & /tmp/core-sharing alu 1500000000 & wait)
//   (likewise: cache 300000000, mem 40000000)   BENCHMARKS.md, "Issue 20 (2026-12-07)"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "alu") && strcmp(argv[1], "cache") && strcmp(argv[1], "mem"))) {
        fprintf(stderr, "usage: %s alu|cache|mem ITERATIONS\n", argv[0]);
        return 2;
    }
    const char *kind = argv[1];
    long iters = atol(argv[2]);
    size_t n = strcmp(kind, "mem") == 0 ? (256u << 20) / 8 : (1u << 20) / 8;
    uint64_t *a = malloc(n * 8);
    if (a == NULL) {
        perror("malloc");
        return 1;
    }
    for (size_t i = 0; i < n; i++) a[i] = i * 0x9E3779B97F4A7C15ull;
    uint64_t x = 1;
    double t0 = now();
    if (strcmp(kind, "alu") == 0) {
        for (long i = 0; i < iters; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x *= 0x2545F4914F6CDD1Dull;
        }
    } else {
        for (long i = 0; i < iters; i++) x = a[(x ^ (uint64_t)i) % n] + i;
    }
    printf("%s %.3f %lu\n", kind, now() - t0, (unsigned long)(x & 1));  // x printed: the loop is kept
    return 0;
}
