/* The system Zstandard library (Debian: libzstd-dev, pkg-config: libzstd): the advanced API and dictionary training. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zdict.h>
