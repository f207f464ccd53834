/*
 * status.c - the messages of enum nvtxt_status (nvtxt/backend.h).
 */
#include "nvtxt/backend.h"

const char *nvtxt_status_message(int status)
{
	switch (status) {
	case NVTXT_OK:
		return "no error";
	case NVTXT_ERR_SYSTEM:
		return "reading, writing or memory failed";
	case NVTXT_ERR_TIME_NO_RATE:
		return "a time of a time base whose clock rate is not known cannot become nanoseconds "
		       "(give a --time-conversion rule for it)";
	case NVTXT_ERR_TIME_RANGE:
		return "a time is outside the int64 range of nanoseconds once converted";
	}
	return "unknown status";
}
