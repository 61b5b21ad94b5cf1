// The native yardstick of `npm run bench -- --native` (bench/native.ts builds and runs it): the
// lab's two reference algorithms written directly in C with pthreads and C11 atomics, so the lab's
// compiled CPUs can be compared with what this machine does without a model in between.
//
//   global-atomic   atomic_inc(&nr_files): every add is a LOCKed add on one shared word.
//   percpu-classic  percpu_counter_add (Linux 2.6.39): each thread adds to its own delta, an s32
//                   as the kernel's `s32 __percpu *counters`, a plain load and store on its own
//                   cache line; at |delta| >= batch it takes the counter's spinlock, folds the
//                   delta into the global s64 count and clears it.
//
// Usage: counters <algorithm> <threads> <seconds> <batch>
// Prints one line: <algorithm> <threads> <adds per second, all threads>
// Build: cc -O2 -pthread -o counters counters.c

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 64
#define LINE 64

// Each thread's delta on a line of its own (the lab's padded layout).
struct slot {
  int delta;
  char pad[LINE - sizeof(int)];
};

// __this_cpu_read() of an s32: on x86-64 the kernel's percpu_from_op is a `mov` in inline asm, so
// the compiler cannot fold the sign extension into the load. That matters: a sign-extending load
// (movslq) is not forwarded from the store before it as a plain mov is (memory renaming), and
// this loop with `(long)*(volatile int *)` (which gcc 12 compiles to one movslq) made 0.56 G adds
// a second here where the mov and a register movslq make 1.3 to 1.8 G, as the 64-bit delta did.
static inline int this_cpu_read_s32(const int *p) {
#if defined(__x86_64__)
  int v;
  __asm__ volatile("movl %1, %0" : "=r"(v) : "m"(*p));
  return v;
#else
  return *(const volatile int *)p;
#endif
}

static struct slot slots[MAX_THREADS] __attribute__((aligned(LINE)));
// Each of the following is a type aligned to a line, so its size is whole lines too: nothing
// else lands beside it. The shared word alone on its line:
static struct __attribute__((aligned(LINE))) {
  _Atomic long word;
} global;
#define global_word global.word
// The percpu_counter: lock and count together, as struct percpu_counter lays them out.
static struct __attribute__((aligned(LINE))) {
  _Atomic int lock;
  long count;
} counter;
// The start and stop flags: every thread reads them, none writes them while the run goes on.
static struct __attribute__((aligned(LINE))) {
  _Atomic int started, stopping;
} flags;
#define started flags.started
#define stopping flags.stopping
static long batch = 32;
static int algorithm; // 0: global-atomic, 1: percpu-classic

struct worker {
  int id;
  long adds;
  pthread_t thread;
};

static void spin_lock(_Atomic int *l) {
  for (;;) {
    // Test, then test-and-set: wait with plain reads, as the lab's compiled spin lock does.
    while (atomic_load_explicit(l, memory_order_relaxed) != 0) {
    }
    int free = 0;
    if (atomic_compare_exchange_weak_explicit(l, &free, 1, memory_order_acquire,
                                              memory_order_relaxed))
      return;
  }
}

static void spin_unlock(_Atomic int *l) { atomic_store_explicit(l, 0, memory_order_release); }

static void percpu_add(struct slot *s, long amount) {
  // The delta is this thread's alone: a plain load and store (asm and volatile keep each add a
  // real memory access, as the kernel's this_cpu ops are, instead of a register across the loop).
  long count = (long)this_cpu_read_s32(&s->delta) + amount;
  if (count >= batch || count <= -batch) {
    spin_lock(&counter.lock);
    counter.count += count;
    *(volatile int *)&s->delta = 0;
    spin_unlock(&counter.lock);
  } else {
    *(volatile int *)&s->delta = (int)count;
  }
}

static void *run(void *arg) {
  struct worker *w = arg;
  struct slot *s = &slots[w->id];
  long adds = 0;
  while (!atomic_load(&started)) {
  }
  while (!atomic_load_explicit(&stopping, memory_order_relaxed)) {
    // A few thousand adds between looks at the stop flag, as the lab's CPUs run bursts.
    if (algorithm == 0)
      for (int i = 0; i < 4096; i++) atomic_fetch_add_explicit(&global_word, 1, memory_order_relaxed);
    else
      for (int i = 0; i < 4096; i++) percpu_add(s, 1);
    adds += 4096;
  }
  w->adds = adds;
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s global-atomic|percpu-classic <threads> <seconds> <batch>\n", argv[0]);
    return 2;
  }
  if (strcmp(argv[1], "global-atomic") == 0)
    algorithm = 0;
  else if (strcmp(argv[1], "percpu-classic") == 0)
    algorithm = 1;
  else {
    fprintf(stderr, "unknown algorithm %s\n", argv[1]);
    return 2;
  }
  int threads = atoi(argv[2]);
  double seconds = atof(argv[3]);
  batch = atol(argv[4]);
  if (threads < 1 || threads > MAX_THREADS || seconds <= 0 || batch < 1) {
    fprintf(stderr, "threads 1 to %d, seconds > 0, batch >= 1\n", MAX_THREADS);
    return 2;
  }
  struct worker workers[MAX_THREADS];
  for (int i = 0; i < threads; i++) {
    workers[i].id = i;
    workers[i].adds = 0;
    pthread_create(&workers[i].thread, NULL, run, &workers[i]);
  }
  double t0 = now();
  atomic_store(&started, 1);
  // Sleep, not spin: a spinning main thread is one more busy thread than there are CPUs when
  // the workers fill the machine, and the workers then take turns rather than race (on this
  // 2-core machine a spinning main thread made 2 threads' atomic_inc 1.7x faster than 2
  // threads can race: fewer of the shared word's cache-line transfers).
  struct timespec nap = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, &nap) == EINTR) {
  }
  atomic_store(&stopping, 1);
  long total = 0;
  for (int i = 0; i < threads; i++) {
    pthread_join(workers[i].thread, NULL);
    total += workers[i].adds;
  }
  double elapsed = now() - t0;
  printf("%s %d %.0f\n", argv[1], threads, (double)total / elapsed);
  return 0;
}
