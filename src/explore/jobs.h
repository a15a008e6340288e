/* jobs.h — work split over forked processes (--jobs): search's configurations and a
 * sweep's points, each run of them costed in a copy of this process that sends its
 * figures back through a pipe. Processes, not threads: costing writes the world's
 * settings, the diagnostics, poly's spare list, the arena's counters; a forked copy
 * shares none of it. The figures are those one process finds (costing is
 * deterministic); the caller merges them in order, and costs again itself whatever a
 * worker did not send, so a failure anywhere changes the speed, never the answer.
 *
 * Ownership: a JobsWorker owns its process and its pipe's reading end until
 * jobs_end. */
#ifndef ROOFLINE_JOBS_H
#define ROOFLINE_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The most processes a statement starts. */
enum { JOBS_MAX = 64 };

/* One forked process and the items [begin, end) it costs. */
typedef struct {
    pid_t pid; /* -1: none was started */
    int fd;    /* the pipe its figures come through; -1: none */
    int begin, end;
} JobsWorker;

/* In the forked process: costs w's items and writes their figures to fd (jobs_send);
 * true when all were sent. */
typedef bool (*JobsWork)(void *ctx, const JobsWorker *w, int fd);

/* How many processes to cost n items in: `asked` (--jobs), at most JOBS_MAX, and no
 * more than gives each process `least` items (fewer are quicker costed here than a
 * process is started). 1: no fork. */
int jobs_count(int asked, int n, int least);

/* Starts w's process, which runs `work` with its stderr quiet (its messages are this
 * process's to say, when it costs the items again) and ends with _exit (what this
 * process has buffered is this process's to write). w->pid is -1 when no process or
 * pipe could be made. */
void jobs_start(JobsWorker *w, JobsWork work, void *ctx);

/* All of `size` bytes written to, or read from, a worker's pipe; false when the pipe
 * ended or failed first. */
bool jobs_send(int fd, const void *data, size_t size);
bool jobs_receive(int fd, void *data, size_t size);

/* The worker's pipe closed and its process waited for (killed first unless `ok`: not
 * all it sent was taken). True when `ok` and it ended well. */
bool jobs_end(JobsWorker *w, bool ok);

#endif
