/* The system cmark, CommonMark's reference implementation (Debian: libcmark-dev, pkg-config: libcmark). */
#include <cmark.h>
