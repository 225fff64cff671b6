// The functions of libgpiod that flapd uses, in both of its APIs, declared here rather than
// taken from the system's <gpiod.h>: Debian 12 (Raspberry Pi OS bookworm) has libgpiod 1
// (libgpiod.so.2, package libgpiod2) and Debian 13 (trixie) has only libgpiod 2 (libgpiod.so.3,
// package libgpiod3), whose API is a different one under the same names. With both declared under
// names of our own, flapd builds on either system without libgpiod's headers and uses whichever
// library the board has (COnDemand opens it; vw_gpiod_api says which).
// The declarations follow libgpiod 1.6's and 2.2's gpiod.h; their enums are passed as int.
#ifndef VW_GPIOD_VERSIONS_H
#define VW_GPIOD_VERSIONS_H
#include <stdbool.h>
#include <stddef.h>

/// 2 when libgpiod.so.3 opens, 1 when libgpiod.so.2 does, 0 when neither (the board has no libgpiod).
int vw_gpiod_api(void);
/// 1 when that library opens (it stays open), else 0: for a backend asked for by name.
int vw_has_gpiod1(void);
int vw_has_gpiod2(void);

// libgpiod 1.x (libgpiod.so.2): lines fetched from a chip into a bulk, then requested.
struct gpiod1_chip;
struct gpiod1_line;
struct gpiod1_line_bulk {
    struct gpiod1_line *lines[64];  // GPIOD_LINE_BULK_MAX_LINES
    unsigned int num_lines;
};
const char *vw_gpiod1_version_string(void);
struct gpiod1_chip *vw_gpiod1_chip_open_lookup(const char *description);
void vw_gpiod1_chip_close(struct gpiod1_chip *chip);
int vw_gpiod1_chip_get_lines(struct gpiod1_chip *chip, unsigned int *offsets, unsigned int num_offsets, struct gpiod1_line_bulk *bulk);
int vw_gpiod1_line_request_bulk_output(struct gpiod1_line_bulk *bulk, const char *consumer, const int *default_vals);
int vw_gpiod1_line_request_bulk_input(struct gpiod1_line_bulk *bulk, const char *consumer);
int vw_gpiod1_line_get_value_bulk(struct gpiod1_line_bulk *bulk, int *values);
int vw_gpiod1_line_set_value_bulk(struct gpiod1_line_bulk *bulk, const int *values);

// libgpiod 2.x (libgpiod.so.3): settings per set of offsets, one request for all of them.
enum { VW_GPIOD2_DIRECTION_INPUT = 2, VW_GPIOD2_DIRECTION_OUTPUT = 3 };
enum { VW_GPIOD2_VALUE_INACTIVE = 0, VW_GPIOD2_VALUE_ACTIVE = 1 };
struct gpiod2_chip;
struct gpiod2_chip_info;
struct gpiod2_line_settings;
struct gpiod2_line_config;
struct gpiod2_request_config;
struct gpiod2_line_request;
const char *vw_gpiod2_api_version(void);
bool vw_gpiod2_is_gpiochip_device(const char *path);
struct gpiod2_chip *vw_gpiod2_chip_open(const char *path);
void vw_gpiod2_chip_close(struct gpiod2_chip *chip);
struct gpiod2_chip_info *vw_gpiod2_chip_get_info(struct gpiod2_chip *chip);
const char *vw_gpiod2_chip_info_get_label(struct gpiod2_chip_info *info);
void vw_gpiod2_chip_info_free(struct gpiod2_chip_info *info);
struct gpiod2_line_settings *vw_gpiod2_line_settings_new(void);
void vw_gpiod2_line_settings_free(struct gpiod2_line_settings *settings);
int vw_gpiod2_line_settings_set_direction(struct gpiod2_line_settings *settings, int direction);
int vw_gpiod2_line_settings_set_output_value(struct gpiod2_line_settings *settings, int value);
struct gpiod2_line_config *vw_gpiod2_line_config_new(void);
void vw_gpiod2_line_config_free(struct gpiod2_line_config *config);
int vw_gpiod2_line_config_add_line_settings(struct gpiod2_line_config *config, const unsigned int *offsets, size_t num_offsets, struct gpiod2_line_settings *settings);
struct gpiod2_request_config *vw_gpiod2_request_config_new(void);
void vw_gpiod2_request_config_free(struct gpiod2_request_config *config);
void vw_gpiod2_request_config_set_consumer(struct gpiod2_request_config *config, const char *consumer);
struct gpiod2_line_request *vw_gpiod2_chip_request_lines(struct gpiod2_chip *chip, struct gpiod2_request_config *request_config, struct gpiod2_line_config *line_config);
void vw_gpiod2_line_request_release(struct gpiod2_line_request *request);
int vw_gpiod2_line_request_get_values(struct gpiod2_line_request *request, int *values);
int vw_gpiod2_line_request_set_values_subset(struct gpiod2_line_request *request, size_t num_values, const unsigned int *offsets, const int *values);

#endif
