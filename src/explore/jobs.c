/* jobs.c — work split over forked processes (jobs.h). */
#include "jobs.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

int jobs_count(int asked, int n, int least)
{
    int jobs = asked < JOBS_MAX ? asked : JOBS_MAX;
    if (jobs > n / least)
        jobs = n / least;
    return jobs > 1 ? jobs : 1;
}

void jobs_start(JobsWorker *w, JobsWork work, void *ctx)
{
    int fds[2];
    w->pid = -1;
    w->fd = -1;
    if (pipe(fds) != 0)
        return;
    w->pid = fork();
    if (w->pid == 0) {
        close(fds[0]);
        int quiet = open("/dev/null", O_WRONLY);
        if (quiet >= 0)
            dup2(quiet, STDERR_FILENO);
        _exit(work(ctx, w, fds[1]) ? 0 : 1);
    }
    close(fds[1]);
    if (w->pid > 0)
        w->fd = fds[0];
    else
        close(fds[0]);
}

bool jobs_send(int fd, const void *data, size_t size)
{
    for (const char *p = data; size > 0;) {
        ssize_t n = write(fd, p, size);
        if (n <= 0)
            return false;
        p += n, size -= (size_t)n;
    }
    return true;
}

bool jobs_receive(int fd, void *data, size_t size)
{
    for (char *p = data; size > 0;) {
        ssize_t n = read(fd, p, size);
        if (n <= 0)
            return false;
        p += n, size -= (size_t)n;
    }
    return true;
}

bool jobs_end(JobsWorker *w, bool ok)
{
    if (w->pid <= 0)
        return false;
    if (!ok)
        kill(w->pid, SIGKILL);
    close(w->fd);
    int status = 0;
    return waitpid(w->pid, &status, 0) == w->pid && ok && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}
