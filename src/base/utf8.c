/* utf8.c — well-formed UTF-8 (utf8.h). */
#include "utf8.h"

/* The range of the byte after a lead byte: narrower than 80..BF for the leads whose
 * sequences could be overlong (E0, F0), a surrogate (ED) or above U+10FFFF (F4). */
static void second_byte_range(unsigned char lead, unsigned char *lo, unsigned char *hi)
{
    *lo = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    *hi = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
}

int utf8_length(const unsigned char *s, size_t n)
{
    int len = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3
            : s[0] < 0xF5 ? 4 : 0;
    if (len == 0 || (size_t)len > n)
        return 0;
    unsigned char lo, hi;
    second_byte_range(s[0], &lo, &hi);
    for (int i = 1; i < len; i++, lo = 0x80, hi = 0xBF)
        if (s[i] < lo || s[i] > hi)
            return 0;
    return len;
}
