// NEP foo against a plain read, as a C compiler writes them: how far the
// hardware lets foo's extra multiplies hide behind the memory stream on one
// core. Not part of `npm run bench` (it needs a C compiler); run it by hand:
//
//   gcc -O3 -msse2 -o /tmp/foo-vs-read benchmarks/native/foo-vs-read.c && /tmp/foo-vs-read
//   gcc -O3 -mavx2 -ffp-contract=off -o /tmp/foo-vs-read benchmarks/native/foo-vs-read.c && /tmp/foo-vs-read
//
// -msse2 gives 128-bit vectors, as WebAssembly SIMD has; -ffp-contract=off
// keeps a multiply and an add apart, as our kernels do. Both loops keep eight
// accumulators and read 2x10^7 float64 once; medians of 31 pairs taken in turn.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

__attribute__((noinline)) static double read_sum(const double *restrict x, long n) {
  double a[8] = {0};
  for (long i = 0; i < n; i += 8)
    for (int j = 0; j < 8; j++) a[j] += x[i + j];
  double s = 0;
  for (int j = 0; j < 8; j++) s += a[j];
  return s;
}

__attribute__((noinline)) static double foo(const double *restrict x, long n) {
  double a[8] = {0};
  const double c = 3.141592653589793 / 180;
  for (long i = 0; i < n; i += 8)
    for (int j = 0; j < 8; j++) {
      double t = x[i + j] * c;
      a[j] += t * t;
    }
  double s = 0;
  for (int j = 0; j < 8; j++) s += a[j];
  return s;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  const long n = 20000000;
  double *x = aligned_alloc(64, n * sizeof(double));
  for (long i = 0; i < n; i++) x[i] = rand() / (double)RAND_MAX;
  double ratio[31], read_ms[31], sink = 0;
  for (int k = 0; k < 31; k++) {
    double t0 = now();
    sink += read_sum(x, n);
    double t1 = now();
    sink += foo(x, n);
    double t2 = now();
    ratio[k] = (t2 - t1) / (t1 - t0);
    read_ms[k] = t1 - t0;
  }
  qsort(ratio, 31, sizeof(double), cmp);
  qsort(read_ms, 31, sizeof(double), cmp);
  printf("read %.2f ms; foo takes %.3fx the read's time (%.3f of its speed)  [%g]\n", read_ms[15], ratio[15], 1 / ratio[15], sink);
  free(x);
  return 0;
}
