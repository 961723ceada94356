// OpenBLAS's CBLAS interface (Debian libopenblas-dev: /usr/include/<triplet>/cblas.h).
#include <cblas.h>
