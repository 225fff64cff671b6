// What Swift cannot call itself: spidev's ioctls (macros over structures) and prctl (variadic).
#pragma once
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/spi/spidev.h>

/// Sets mode, word size and speed; returns 0 or -1 with errno set.
static inline int vw_spi_configure(int fd, uint8_t mode, uint8_t bits, uint32_t speed_hz) {
    if (ioctl(fd, SPI_IOC_WR_MODE, &mode) < 0) return -1;
    if (ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0) return -1;
    if (ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed_hz) < 0) return -1;
    return 0;
}

/// One full-duplex transfer with chip select held throughout; returns 0 or -1 with errno set.
static inline int vw_spi_transfer(int fd, const uint8_t *tx, uint8_t *rx, uint32_t length, uint32_t speed_hz) {
    struct spi_ioc_transfer transfer;
    memset(&transfer, 0, sizeof transfer);
    transfer.tx_buf = (uint64_t)(uintptr_t)tx;
    transfer.rx_buf = (uint64_t)(uintptr_t)rx;
    transfer.len = length;
    transfer.speed_hz = speed_hz;
    transfer.bits_per_word = 8;
    return ioctl(fd, SPI_IOC_MESSAGE(1), &transfer) < 0 ? -1 : 0;
}

#include <sys/prctl.h>

/// The calling thread's timer slack (prctl is variadic, so Swift cannot call it).
static inline int vw_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

/// Names the calling thread (at most 15 bytes; longer is cut) for top -H and debuggers.
static inline int vw_set_thread_name(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return prctl(PR_SET_NAME, (unsigned long)shortened, 0, 0, 0);
}

#include <linux/fb.h>

/// A framebuffer's geometry and pixel format from its variable and fixed screen information;
/// returns 0 or -1 with errno set (ENOTTY for a file that is not a framebuffer).
static inline int vw_fb_screen_info(int fd, uint32_t *width, uint32_t *height, uint32_t *bits_per_pixel, uint32_t *line_length,
                                    uint32_t offsets[3], uint32_t lengths[3]) {
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) return -1;
    if (ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) return -1;
    *width = var.xres; *height = var.yres; *bits_per_pixel = var.bits_per_pixel; *line_length = fix.line_length;
    offsets[0] = var.red.offset; offsets[1] = var.green.offset; offsets[2] = var.blue.offset;
    lengths[0] = var.red.length; lengths[1] = var.green.length; lengths[2] = var.blue.length;
    return 0;
}

#include <stdbool.h>

/// rpi-rgb-led-matrix's `struct RGBLedMatrixOptions` as its C header (led-matrix-c.h) declares it,
/// with room after it: the library only reads the fields it knows, and a newer one with more
/// fields finds them zero, which means "default" there.
struct vw_rgb_matrix_options {
    const char *hardware_mapping;
    int rows, cols, chain_length, parallel;
    int pwm_bits, pwm_lsb_nanoseconds, pwm_dither_bits, brightness;
    int scan_mode, row_address_type, multiplexing;
    bool disable_hardware_pulsing, show_refresh_rate, inverse_colors;
    const char *led_rgb_sequence;
    const char *pixel_mapper_config;
    const char *panel_type;
    int limit_refresh_rate_hz;
    bool disable_busy_waiting;
    char room_for_newer_fields[256];
};

/// rpi-rgb-led-matrix's `struct RGBLedRuntimeOptions` (led-matrix-c.h), with room after it.
struct vw_rgb_matrix_runtime_options {
    int gpio_slowdown;
    int daemon;
    int drop_privileges;
    bool do_gpio_init;
    const char *drop_priv_user;
    const char *drop_priv_group;
    char room_for_newer_fields[256];
};

#include <malloc.h>
#include <sys/timex.h>

/// glibc's heap tuning (<malloc.h> is not in Swift's Glibc module): large arrays up to
/// `mmap_threshold` in the heap, `top_pad` of slack kept when it grows and shrinks, memory
/// given back beyond `trim_threshold` free at its top, at most `arena_max` heaps.
static inline void vw_heap_tune(int mmap_threshold, int top_pad, int trim_threshold, int arena_max) {
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    mallopt(M_TOP_PAD, top_pad);
    mallopt(M_TRIM_THRESHOLD, trim_threshold);
    mallopt(M_ARENA_MAX, arena_max);
}

/// Every free page of every heap given back to the kernel (malloc_trim), not only the top's.
static inline void vw_heap_give_back(void) {
    malloc_trim(0);
}

/// The kernel's clock state (adjtimex with nothing to set): TIME_OK … TIME_WAIT, or TIME_ERROR
/// when the clock is not synchronised (or nobody disciplines it), or -1.
static inline int vw_clock_state(void) {
    struct timex status = {0};
    return adjtimex(&status);
}

static const int vw_time_error = TIME_ERROR;
