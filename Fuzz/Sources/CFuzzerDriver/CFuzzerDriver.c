// Intentionally empty: the module only declares LLVMFuzzerRunDriver (include/CFuzzerDriver.h).
#include "CFuzzerDriver.h"
