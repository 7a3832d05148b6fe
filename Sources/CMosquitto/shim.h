#ifndef MESHNODE_CMOSQUITTO_SHIM_H
#define MESHNODE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
