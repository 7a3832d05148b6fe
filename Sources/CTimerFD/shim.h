#ifndef MESHNODE_CTIMERFD_SHIM_H
#define MESHNODE_CTIMERFD_SHIM_H
/* glibc's timerfd, which the Swift Glibc module leaves out (the engine driver's relay wake-up). */
#include <sys/timerfd.h>
#endif
