// The C libraries the offline bookshelf scan uses, through their plain (non-variadic, no setjmp)
// APIs: ZBar (barcodes), libpng's simplified API, TurboJPEG and libwebp's simple decoder.
#ifndef BTS_CBARCODE_SHIM_H
#define BTS_CBARCODE_SHIM_H

#include <zbar.h>
#include <png.h>
#include <turbojpeg.h>
#include <webp/decode.h>
#include <webp/encode.h>

/// `zbar_fourcc('Y','8','0','0')`: one byte of luminance per pixel (a macro, so Swift cannot call it).
static inline unsigned long bts_zbar_format_y800(void) {
    return zbar_fourcc('Y', '8', '0', '0');
}

/// `PNG_IMAGE_VERSION` (a macro).
static inline png_uint_32 bts_png_image_version(void) { return PNG_IMAGE_VERSION; }

#endif
