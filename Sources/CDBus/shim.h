#ifndef MESHNODE_CDBUS_SHIM_H
#define MESHNODE_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
