#ifndef MESHNODE_CTIMEX_SHIM_H
#define MESHNODE_CTIMEX_SHIM_H
/* glibc's adjtimex(2) and struct timex, which the Swift Glibc module leaves out (relayctl doctor's
   clock check: whether the kernel considers the clock synchronised). */
#include <sys/timex.h>
#endif
