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
