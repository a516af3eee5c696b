// Issue 47: what one wake-up of a thread blocked in poll() costs on this machine, apart from
// any PBX. Asterisk's CPU per voicemail call is almost all its channel threads waking for each
// RTP packet and each 20 ms playback tick (`npm run bench:knee` prints Asterisk's wake-ups per
// call and CPU µs per wake-up); this says how much of that cost is the machine's.
//
// N receiver threads pinned to CPU 0 each block in poll() on the four descriptors an Asterisk
// channel thread polls (its RTP and RTCP sockets, its timer, its alert pipe), woken by one
// sender thread on CPU 1 that sends each receiver's RTP socket a 172-byte packet (20 ms of
// G.711) every 20 ms, spread over the 20 ms like independent phones. Per packet a receiver
// makes the system calls Asterisk makes (poll, a read of the empty alert pipe, recvfrom,
// gettid) and nothing else. Prints the receivers' CPU per wake-up, a sleep in poll() counted as
// the kernel counts it (voluntary context switches, as bench/lib/thread-wakeups.ts counts
// Asterisk's), and per packet (getrusage per thread: the same accounting as Asterisk's CPU
// figure from /proc). Figures only.
//
// Run: cc -O2 -pthread -o /tmp/wakeup-cost bench/wakeup-cost.c && /tmp/wakeup-cost [receivers=100] [seconds=10] [timer|per-packet]
// The third argument adds playback, a 172-byte frame sent every 20 ms to a socket nobody reads:
// `timer`, each receiver's own 20 ms timer at a phase unrelated to its packets (as Asterisk plays
// a prompt), or `per-packet`, a frame sent on each packet read (playback clocked by the caller's
// packets). The difference in CPU per packet is what a playback tick's own wake-up costs.
// To see the cost when CPU 0 never idles between wake-ups, keep it busy meanwhile at the lowest
// priority: taskset -c 0 nice -n 19 timeout 12 sh -c 'while :; do :; done' &
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdint.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_RECEIVERS 1000

static int receivers = 100, seconds = 10;
/** What each receiver plays back meanwhile: nothing, a frame per tick of its own 20 ms timer
 * (as Asterisk plays a prompt: a wake-up of its own), or a frame per packet read (playback
 * clocked by the caller's packets: no wake-up of its own). */
static enum { PLAY_NONE, PLAY_TIMER, PLAY_PER_PACKET } play = PLAY_NONE;
/** Where played frames go: a socket nobody reads (the same for both ways of playing). */
static struct sockaddr_in sink;
static int socks[MAX_RECEIVERS];
static struct sockaddr_in addrs[MAX_RECEIVERS];
static volatile int stop = 0;
static long packets[MAX_RECEIVERS], sleeps[MAX_RECEIVERS];
static double cpu[MAX_RECEIVERS];

static void pin(int which) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(which, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/** This thread's CPU seconds; its voluntary context switches (each a sleep, so a wake-up) in *sleeps_out. */
static double thread_cpu_seconds(long *sleeps_out) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  *sleeps_out = ru.ru_nvcsw;
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void *receiver(void *arg) {
  long i = (long)arg;
  pin(0);
  int alert[2];
  if (pipe2(alert, O_NONBLOCK)) return NULL;
  int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  int out = socket(AF_INET, SOCK_DGRAM, 0);
  char frame[172];
  memset(frame, 0x7f, sizeof frame);
  if (play == PLAY_TIMER) {
    // A phase of its own, unrelated to the packets', as a prompt's timer has.
    struct itimerspec every20ms = {{0, 20000000L}, {0, 1000000L + (i * 7919L) % 19000000L}};
    timerfd_settime(timer, 0, &every20ms, NULL);
  }
  int rtcp = socket(AF_INET, SOCK_DGRAM, 0);
  struct pollfd fds[4] = {{timer, POLLIN | POLLPRI, 0}, {alert[0], POLLIN | POLLPRI, 0}, {socks[i], POLLIN | POLLPRI, 0}, {rtcp, POLLIN | POLLPRI, 0}};
  char buf[8192], none[8];
  long n = 0;
  while (!stop) {
    if (poll(fds, 4, 200) <= 0) continue;
    if (fds[0].revents & POLLIN) {
      // The playback tick, as Asterisk acknowledges it: timerfd_gettime, read, then the frame.
      struct itimerspec left;
      uint64_t ticks;
      timerfd_gettime(timer, &left);
      if (read(timer, &ticks, sizeof ticks) > 0) sendto(out, frame, sizeof frame, 0, (void *)&sink, sizeof sink);
      syscall(SYS_gettid);
    }
    if (!(fds[2].revents & POLLIN)) continue;
    if (read(alert[0], none, sizeof none) < 0) { /* empty, as Asterisk's alert pipe mostly is */ }
    recvfrom(socks[i], buf, sizeof buf, MSG_DONTWAIT, NULL, NULL);
    syscall(SYS_gettid);
    if (play == PLAY_PER_PACKET) sendto(out, frame, sizeof frame, 0, (void *)&sink, sizeof sink);
    n++;
  }
  cpu[i] = thread_cpu_seconds(&sleeps[i]);
  packets[i] = n;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1) receivers = atoi(argv[1]);
  if (argc > 2) seconds = atoi(argv[2]);
  if (argc > 3) play = !strcmp(argv[3], "timer") ? PLAY_TIMER : !strcmp(argv[3], "per-packet") ? PLAY_PER_PACKET : PLAY_NONE;
  int sink_socket = socket(AF_INET, SOCK_DGRAM, 0);
  sink.sin_family = AF_INET;
  sink.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t sink_len = sizeof sink;
  if (bind(sink_socket, (void *)&sink, sink_len) || getsockname(sink_socket, (void *)&sink, &sink_len)) {
    perror("bind");
    return 1;
  }
  if (receivers < 1 || receivers > MAX_RECEIVERS || seconds < 1) {
    fprintf(stderr, "usage: %s [receivers 1-%d] [seconds]\n", argv[0], MAX_RECEIVERS);
    return 2;
  }
  for (int i = 0; i < receivers; i++) {
    socks[i] = socket(AF_INET, SOCK_DGRAM, 0);
    addrs[i].sin_family = AF_INET;
    addrs[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addrs[i];
    if (bind(socks[i], (void *)&addrs[i], len) || getsockname(socks[i], (void *)&addrs[i], &len)) {
      perror("bind");
      return 1;
    }
  }
  pthread_t threads[MAX_RECEIVERS];
  for (long i = 0; i < receivers; i++) pthread_create(&threads[i], NULL, receiver, (void *)i);
  pin(1);
  int out = socket(AF_INET, SOCK_DGRAM, 0);
  char packet[172];
  memset(packet, 0xff, sizeof packet);
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (int tick = 0; tick < seconds * 50; tick++) {
    for (int i = 0; i < receivers; i++) {
      next.tv_nsec += 20000000L / receivers;
      if (next.tv_nsec >= 1000000000L) {
        next.tv_nsec -= 1000000000L;
        next.tv_sec++;
      }
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
      sendto(out, packet, sizeof packet, 0, (void *)&addrs[i], sizeof addrs[i]);
    }
  }
  stop = 1;
  long total = 0, woken = 0;
  double seconds_cpu = 0;
  for (int i = 0; i < receivers; i++) {
    pthread_join(threads[i], NULL);
    total += packets[i];
    woken += sleeps[i];
    seconds_cpu += cpu[i];
  }
  double load[1] = {0};
  getloadavg(load, 1);
  // A packet that is already waiting when its thread polls again costs no wake-up: on a busy CPU
  // that happens more, which is why the CPU per packet falls as the load rises.
  printf("wakeup-cost: %d receivers on CPU 0 playing %s, %d s: %ld packets, %ld wake-ups (sleeps in poll), receivers' CPU %.0f ms: %.1f us per wake-up, %.1f us per packet (load %.1f)\n", receivers, play == PLAY_TIMER ? "a frame per tick of their own 20 ms timer" : play == PLAY_PER_PACKET ? "a frame per packet read" : "nothing", seconds, total, woken, seconds_cpu * 1000, seconds_cpu * 1e6 / (woken ? woken : 1), seconds_cpu * 1e6 / (total ? total : 1), load[0]);
  return 0;
}
