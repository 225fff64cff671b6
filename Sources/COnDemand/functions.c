// Written by scripts/generate/on-demand-libraries.py; run it again rather than editing.
#include "loader.h"

// sqlite3.h
int sqlite3_bind_blob(sqlite3_stmt * a0, int a1, const void * a2, int a3, void (*a4)(void *)) { return VW_CALL(vw_sqlite3, sqlite3_bind_blob)(a0, a1, a2, a3, a4); }
int sqlite3_bind_double(sqlite3_stmt * a0, int a1, double a2) { return VW_CALL(vw_sqlite3, sqlite3_bind_double)(a0, a1, a2); }
int sqlite3_bind_int64(sqlite3_stmt * a0, int a1, sqlite3_int64 a2) { return VW_CALL(vw_sqlite3, sqlite3_bind_int64)(a0, a1, a2); }
int sqlite3_bind_null(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_bind_null)(a0, a1); }
int sqlite3_bind_parameter_count(sqlite3_stmt * a0) { return VW_CALL(vw_sqlite3, sqlite3_bind_parameter_count)(a0); }
int sqlite3_bind_text(sqlite3_stmt * a0, int a1, const char * a2, int a3, void (*a4)(void *)) { return VW_CALL(vw_sqlite3, sqlite3_bind_text)(a0, a1, a2, a3, a4); }
int sqlite3_bind_zeroblob(sqlite3_stmt * a0, int a1, int a2) { return VW_CALL(vw_sqlite3, sqlite3_bind_zeroblob)(a0, a1, a2); }
int sqlite3_busy_timeout(sqlite3 * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_busy_timeout)(a0, a1); }
sqlite3_int64 sqlite3_changes64(sqlite3 * a0) { return VW_CALL(vw_sqlite3, sqlite3_changes64)(a0); }
int sqlite3_clear_bindings(sqlite3_stmt * a0) { return VW_CALL(vw_sqlite3, sqlite3_clear_bindings)(a0); }
int sqlite3_close_v2(sqlite3 * a0) { return VW_CALL(vw_sqlite3, sqlite3_close_v2)(a0); }
const void * sqlite3_column_blob(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_blob)(a0, a1); }
int sqlite3_column_bytes(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_bytes)(a0, a1); }
int sqlite3_column_count(sqlite3_stmt * a0) { return VW_CALL(vw_sqlite3, sqlite3_column_count)(a0); }
double sqlite3_column_double(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_double)(a0, a1); }
sqlite3_int64 sqlite3_column_int64(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_int64)(a0, a1); }
const char * sqlite3_column_name(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_name)(a0, a1); }
const unsigned char * sqlite3_column_text(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_text)(a0, a1); }
int sqlite3_column_type(sqlite3_stmt * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_column_type)(a0, a1); }
int sqlite3_db_readonly(sqlite3 * a0, const char * a1) { return VW_CALL(vw_sqlite3, sqlite3_db_readonly)(a0, a1); }
const char * sqlite3_errmsg(sqlite3 * a0) { return VW_CALL(vw_sqlite3, sqlite3_errmsg)(a0); }
const char * sqlite3_errstr(int a0) { return VW_CALL(vw_sqlite3, sqlite3_errstr)(a0); }
int sqlite3_exec(sqlite3 * a0, const char * a1, int (*a2)(void *, int, char **, char **), void * a3, char ** a4) { return VW_CALL(vw_sqlite3, sqlite3_exec)(a0, a1, a2, a3, a4); }
int sqlite3_extended_errcode(sqlite3 * a0) { return VW_CALL(vw_sqlite3, sqlite3_extended_errcode)(a0); }
int sqlite3_extended_result_codes(sqlite3 * a0, int a1) { return VW_CALL(vw_sqlite3, sqlite3_extended_result_codes)(a0, a1); }
int sqlite3_finalize(sqlite3_stmt * a0) { return VW_CALL(vw_sqlite3, sqlite3_finalize)(a0); }
int sqlite3_get_autocommit(sqlite3 * a0) { return VW_CALL(vw_sqlite3, sqlite3_get_autocommit)(a0); }
sqlite3_int64 sqlite3_last_insert_rowid(sqlite3 * a0) { return VW_CALL(vw_sqlite3, sqlite3_last_insert_rowid)(a0); }
int sqlite3_open_v2(const char * a0, sqlite3 ** a1, int a2, const char * a3) { return VW_CALL(vw_sqlite3, sqlite3_open_v2)(a0, a1, a2, a3); }
int sqlite3_prepare_v3(sqlite3 * a0, const char * a1, int a2, unsigned int a3, sqlite3_stmt ** a4, const char ** a5) { return VW_CALL(vw_sqlite3, sqlite3_prepare_v3)(a0, a1, a2, a3, a4, a5); }
int sqlite3_reset(sqlite3_stmt * a0) { return VW_CALL(vw_sqlite3, sqlite3_reset)(a0); }
int sqlite3_step(sqlite3_stmt * a0) { return VW_CALL(vw_sqlite3, sqlite3_step)(a0); }
int sqlite3_wal_checkpoint_v2(sqlite3 * a0, const char * a1, int a2, int * a3, int * a4) { return VW_CALL(vw_sqlite3, sqlite3_wal_checkpoint_v2)(a0, a1, a2, a3, a4); }

// alsa/asoundlib.h
int snd_config_delete(snd_config_t * a0) { return VW_CALL(vw_asound, snd_config_delete)(a0); }
int snd_config_load(snd_config_t * a0, snd_input_t * a1) { return VW_CALL(vw_asound, snd_config_load)(a0, a1); }
int snd_config_top(snd_config_t ** a0) { return VW_CALL(vw_asound, snd_config_top)(a0); }
int snd_input_buffer_open(snd_input_t ** a0, const char * a1, ssize_t a2) { return VW_CALL(vw_asound, snd_input_buffer_open)(a0, a1, a2); }
int snd_input_close(snd_input_t * a0) { return VW_CALL(vw_asound, snd_input_close)(a0); }
int snd_lib_error_set_handler(snd_lib_error_handler_t a0) { return VW_CALL(vw_asound, snd_lib_error_set_handler)(a0); }
int snd_pcm_close(snd_pcm_t * a0) { return VW_CALL(vw_asound, snd_pcm_close)(a0); }
int snd_pcm_delay(snd_pcm_t * a0, snd_pcm_sframes_t * a1) { return VW_CALL(vw_asound, snd_pcm_delay)(a0, a1); }
int snd_pcm_hw_params(snd_pcm_t * a0, snd_pcm_hw_params_t * a1) { return VW_CALL(vw_asound, snd_pcm_hw_params)(a0, a1); }
int snd_pcm_hw_params_any(snd_pcm_t * a0, snd_pcm_hw_params_t * a1) { return VW_CALL(vw_asound, snd_pcm_hw_params_any)(a0, a1); }
void snd_pcm_hw_params_free(snd_pcm_hw_params_t * a0) { VW_CALL(vw_asound, snd_pcm_hw_params_free)(a0); }
int snd_pcm_hw_params_malloc(snd_pcm_hw_params_t ** a0) { return VW_CALL(vw_asound, snd_pcm_hw_params_malloc)(a0); }
int snd_pcm_hw_params_set_access(snd_pcm_t * a0, snd_pcm_hw_params_t * a1, snd_pcm_access_t a2) { return VW_CALL(vw_asound, snd_pcm_hw_params_set_access)(a0, a1, a2); }
int snd_pcm_hw_params_set_buffer_size_near(snd_pcm_t * a0, snd_pcm_hw_params_t * a1, snd_pcm_uframes_t * a2) { return VW_CALL(vw_asound, snd_pcm_hw_params_set_buffer_size_near)(a0, a1, a2); }
int snd_pcm_hw_params_set_channels(snd_pcm_t * a0, snd_pcm_hw_params_t * a1, unsigned int a2) { return VW_CALL(vw_asound, snd_pcm_hw_params_set_channels)(a0, a1, a2); }
int snd_pcm_hw_params_set_format(snd_pcm_t * a0, snd_pcm_hw_params_t * a1, snd_pcm_format_t a2) { return VW_CALL(vw_asound, snd_pcm_hw_params_set_format)(a0, a1, a2); }
int snd_pcm_hw_params_set_period_size_near(snd_pcm_t * a0, snd_pcm_hw_params_t * a1, snd_pcm_uframes_t * a2, int * a3) { return VW_CALL(vw_asound, snd_pcm_hw_params_set_period_size_near)(a0, a1, a2, a3); }
int snd_pcm_hw_params_set_rate_near(snd_pcm_t * a0, snd_pcm_hw_params_t * a1, unsigned int * a2, int * a3) { return VW_CALL(vw_asound, snd_pcm_hw_params_set_rate_near)(a0, a1, a2, a3); }
int snd_pcm_open(snd_pcm_t ** a0, const char * a1, snd_pcm_stream_t a2, int a3) { return VW_CALL(vw_asound, snd_pcm_open)(a0, a1, a2, a3); }
int snd_pcm_open_lconf(snd_pcm_t ** a0, const char * a1, snd_pcm_stream_t a2, int a3, snd_config_t * a4) { return VW_CALL(vw_asound, snd_pcm_open_lconf)(a0, a1, a2, a3, a4); }
int snd_pcm_prepare(snd_pcm_t * a0) { return VW_CALL(vw_asound, snd_pcm_prepare)(a0); }
int snd_pcm_recover(snd_pcm_t * a0, int a1, int a2) { return VW_CALL(vw_asound, snd_pcm_recover)(a0, a1, a2); }
snd_pcm_sframes_t snd_pcm_writei(snd_pcm_t * a0, const void * a1, snd_pcm_uframes_t a2) { return VW_CALL(vw_asound, snd_pcm_writei)(a0, a1, a2); }
const char * snd_strerror(int a0) { return VW_CALL(vw_asound, snd_strerror)(a0); }

// gpiod_versions.h
void vw_gpiod1_chip_close(struct gpiod1_chip * a0) { VW_CALL_AS(vw_gpiod1, vw_gpiod1_chip_close, "gpiod_chip_close")(a0); }
int vw_gpiod1_chip_get_lines(struct gpiod1_chip * a0, unsigned int * a1, unsigned int a2, struct gpiod1_line_bulk * a3) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_chip_get_lines, "gpiod_chip_get_lines")(a0, a1, a2, a3); }
struct gpiod1_chip * vw_gpiod1_chip_open_lookup(const char * a0) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_chip_open_lookup, "gpiod_chip_open_lookup")(a0); }
int vw_gpiod1_line_get_value_bulk(struct gpiod1_line_bulk * a0, int * a1) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_line_get_value_bulk, "gpiod_line_get_value_bulk")(a0, a1); }
int vw_gpiod1_line_request_bulk_input(struct gpiod1_line_bulk * a0, const char * a1) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_line_request_bulk_input, "gpiod_line_request_bulk_input")(a0, a1); }
int vw_gpiod1_line_request_bulk_output(struct gpiod1_line_bulk * a0, const char * a1, const int * a2) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_line_request_bulk_output, "gpiod_line_request_bulk_output")(a0, a1, a2); }
int vw_gpiod1_line_set_value_bulk(struct gpiod1_line_bulk * a0, const int * a1) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_line_set_value_bulk, "gpiod_line_set_value_bulk")(a0, a1); }
const char * vw_gpiod1_version_string(void) { return VW_CALL_AS(vw_gpiod1, vw_gpiod1_version_string, "gpiod_version_string")(); }

// gpiod_versions.h
const char * vw_gpiod2_api_version(void) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_api_version, "gpiod_api_version")(); }
void vw_gpiod2_chip_close(struct gpiod2_chip * a0) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_chip_close, "gpiod_chip_close")(a0); }
struct gpiod2_chip_info * vw_gpiod2_chip_get_info(struct gpiod2_chip * a0) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_chip_get_info, "gpiod_chip_get_info")(a0); }
void vw_gpiod2_chip_info_free(struct gpiod2_chip_info * a0) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_chip_info_free, "gpiod_chip_info_free")(a0); }
const char * vw_gpiod2_chip_info_get_label(struct gpiod2_chip_info * a0) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_chip_info_get_label, "gpiod_chip_info_get_label")(a0); }
struct gpiod2_chip * vw_gpiod2_chip_open(const char * a0) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_chip_open, "gpiod_chip_open")(a0); }
struct gpiod2_line_request * vw_gpiod2_chip_request_lines(struct gpiod2_chip * a0, struct gpiod2_request_config * a1, struct gpiod2_line_config * a2) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_chip_request_lines, "gpiod_chip_request_lines")(a0, a1, a2); }
_Bool vw_gpiod2_is_gpiochip_device(const char * a0) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_is_gpiochip_device, "gpiod_is_gpiochip_device")(a0); }
int vw_gpiod2_line_config_add_line_settings(struct gpiod2_line_config * a0, const unsigned int * a1, size_t a2, struct gpiod2_line_settings * a3) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_config_add_line_settings, "gpiod_line_config_add_line_settings")(a0, a1, a2, a3); }
void vw_gpiod2_line_config_free(struct gpiod2_line_config * a0) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_config_free, "gpiod_line_config_free")(a0); }
struct gpiod2_line_config * vw_gpiod2_line_config_new(void) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_config_new, "gpiod_line_config_new")(); }
int vw_gpiod2_line_request_get_values(struct gpiod2_line_request * a0, int * a1) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_request_get_values, "gpiod_line_request_get_values")(a0, a1); }
void vw_gpiod2_line_request_release(struct gpiod2_line_request * a0) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_request_release, "gpiod_line_request_release")(a0); }
int vw_gpiod2_line_request_set_values_subset(struct gpiod2_line_request * a0, size_t a1, const unsigned int * a2, const int * a3) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_request_set_values_subset, "gpiod_line_request_set_values_subset")(a0, a1, a2, a3); }
void vw_gpiod2_line_settings_free(struct gpiod2_line_settings * a0) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_settings_free, "gpiod_line_settings_free")(a0); }
struct gpiod2_line_settings * vw_gpiod2_line_settings_new(void) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_settings_new, "gpiod_line_settings_new")(); }
int vw_gpiod2_line_settings_set_direction(struct gpiod2_line_settings * a0, int a1) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_settings_set_direction, "gpiod_line_settings_set_direction")(a0, a1); }
int vw_gpiod2_line_settings_set_output_value(struct gpiod2_line_settings * a0, int a1) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_line_settings_set_output_value, "gpiod_line_settings_set_output_value")(a0, a1); }
void vw_gpiod2_request_config_free(struct gpiod2_request_config * a0) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_request_config_free, "gpiod_request_config_free")(a0); }
struct gpiod2_request_config * vw_gpiod2_request_config_new(void) { return VW_CALL_AS(vw_gpiod2, vw_gpiod2_request_config_new, "gpiod_request_config_new")(); }
void vw_gpiod2_request_config_set_consumer(struct gpiod2_request_config * a0, const char * a1) { VW_CALL_AS(vw_gpiod2, vw_gpiod2_request_config_set_consumer, "gpiod_request_config_set_consumer")(a0, a1); }

// systemd/sd-daemon.h, systemd/sd-bus.h
int sd_bus_add_match(sd_bus * a0, sd_bus_slot ** a1, const char * a2, sd_bus_message_handler_t a3, void * a4) { return VW_CALL(vw_systemd, sd_bus_add_match)(a0, a1, a2, a3, a4); }
int sd_bus_call_async(sd_bus * a0, sd_bus_slot ** a1, sd_bus_message * a2, sd_bus_message_handler_t a3, void * a4, uint64_t a5) { return VW_CALL(vw_systemd, sd_bus_call_async)(a0, a1, a2, a3, a4, a5); }
sd_bus * sd_bus_flush_close_unref(sd_bus * a0) { return VW_CALL(vw_systemd, sd_bus_flush_close_unref)(a0); }
int sd_bus_get_events(sd_bus * a0) { return VW_CALL(vw_systemd, sd_bus_get_events)(a0); }
int sd_bus_get_fd(sd_bus * a0) { return VW_CALL(vw_systemd, sd_bus_get_fd)(a0); }
int sd_bus_get_timeout(sd_bus * a0, uint64_t * a1) { return VW_CALL(vw_systemd, sd_bus_get_timeout)(a0, a1); }
int sd_bus_message_append_array(sd_bus_message * a0, char a1, const void * a2, size_t a3) { return VW_CALL(vw_systemd, sd_bus_message_append_array)(a0, a1, a2, a3); }
int sd_bus_message_append_basic(sd_bus_message * a0, char a1, const void * a2) { return VW_CALL(vw_systemd, sd_bus_message_append_basic)(a0, a1, a2); }
int sd_bus_message_close_container(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_close_container)(a0); }
int sd_bus_message_enter_container(sd_bus_message * a0, char a1, const char * a2) { return VW_CALL(vw_systemd, sd_bus_message_enter_container)(a0, a1, a2); }
int sd_bus_message_exit_container(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_exit_container)(a0); }
const sd_bus_error * sd_bus_message_get_error(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_get_error)(a0); }
const char * sd_bus_message_get_interface(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_get_interface)(a0); }
const char * sd_bus_message_get_member(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_get_member)(a0); }
const char * sd_bus_message_get_path(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_get_path)(a0); }
const char * sd_bus_message_get_sender(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_get_sender)(a0); }
int sd_bus_message_is_method_error(sd_bus_message * a0, const char * a1) { return VW_CALL(vw_systemd, sd_bus_message_is_method_error)(a0, a1); }
int sd_bus_message_new_method_call(sd_bus * a0, sd_bus_message ** a1, const char * a2, const char * a3, const char * a4, const char * a5) { return VW_CALL(vw_systemd, sd_bus_message_new_method_call)(a0, a1, a2, a3, a4, a5); }
int sd_bus_message_open_container(sd_bus_message * a0, char a1, const char * a2) { return VW_CALL(vw_systemd, sd_bus_message_open_container)(a0, a1, a2); }
int sd_bus_message_peek_type(sd_bus_message * a0, char * a1, const char ** a2) { return VW_CALL(vw_systemd, sd_bus_message_peek_type)(a0, a1, a2); }
int sd_bus_message_read_array(sd_bus_message * a0, char a1, const void ** a2, size_t * a3) { return VW_CALL(vw_systemd, sd_bus_message_read_array)(a0, a1, a2, a3); }
int sd_bus_message_read_basic(sd_bus_message * a0, char a1, void * a2) { return VW_CALL(vw_systemd, sd_bus_message_read_basic)(a0, a1, a2); }
sd_bus_message * sd_bus_message_unref(sd_bus_message * a0) { return VW_CALL(vw_systemd, sd_bus_message_unref)(a0); }
int sd_bus_new(sd_bus ** a0) { return VW_CALL(vw_systemd, sd_bus_new)(a0); }
int sd_bus_open_system(sd_bus ** a0) { return VW_CALL(vw_systemd, sd_bus_open_system)(a0); }
int sd_bus_process(sd_bus * a0, sd_bus_message ** a1) { return VW_CALL(vw_systemd, sd_bus_process)(a0, a1); }
int sd_bus_set_address(sd_bus * a0, const char * a1) { return VW_CALL(vw_systemd, sd_bus_set_address)(a0, a1); }
int sd_bus_set_bus_client(sd_bus * a0, int a1) { return VW_CALL(vw_systemd, sd_bus_set_bus_client)(a0, a1); }
sd_bus_slot * sd_bus_slot_unref(sd_bus_slot * a0) { return VW_CALL(vw_systemd, sd_bus_slot_unref)(a0); }
int sd_bus_start(sd_bus * a0) { return VW_CALL(vw_systemd, sd_bus_start)(a0); }
sd_bus * sd_bus_unref(sd_bus * a0) { return VW_CALL(vw_systemd, sd_bus_unref)(a0); }
int sd_notify(int a0, const char * a1) { return VW_CALL(vw_systemd, sd_notify)(a0, a1); }
int sd_watchdog_enabled(int a0, uint64_t * a1) { return VW_CALL(vw_systemd, sd_watchdog_enabled)(a0, a1); }

// qrencode.h
QRcode * QRcode_encodeString8bit(const char * a0, int a1, QRecLevel a2) { return VW_CALL(vw_qrencode, QRcode_encodeString8bit)(a0, a1, a2); }
void QRcode_free(QRcode * a0) { VW_CALL(vw_qrencode, QRcode_free)(a0); }
