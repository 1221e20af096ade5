/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading WEFT_* variables: the parsers (sizes with units, booleans, timer
 * names, durations) and the table `weft info` prints. The list of variables
 * lives in weft/config.h; this file only interprets it. A bad value never
 * stops the program: one stderr line, then the default. */
#include "weft/config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weft/log.h"

#define VAR_ENTRY(NAME, field, type, def, meaning) {"WEFT_" #NAME, def, meaning},
static const weft_config_var vars[] = {WEFT_CONFIG_LIST(VAR_ENTRY)};
#undef VAR_ENTRY

const weft_config_var *weft_config_vars(size_t *count)
{
    if (count)
        *count = sizeof(vars) / sizeof(vars[0]);
    return vars;
}

weft_status weft_config_parse_size(const char *text, uint64_t *out)
{
    *out = 0;
    if (!text)
        return WEFT_ERR_INVALID;
    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return WEFT_ERR_INVALID;
    errno = 0;
    char *end = NULL;
    unsigned long long number = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return WEFT_ERR_RANGE;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    /* Accept "16M", "16MB", "16MiB", "4096B"; nothing else may follow. */
    if (shift && tolower((unsigned char)*end) == 'i')
        end++;
    if (toupper((unsigned char)*end) == 'B')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return WEFT_ERR_INVALID;
    if (shift && number > (UINT64_MAX >> shift))
        return WEFT_ERR_RANGE;
    *out = (uint64_t)number << shift;
    return WEFT_OK;
}

weft_status weft_config_parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    *out = false;
    if (!text)
        return WEFT_ERR_INVALID;
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *out = true;
            return WEFT_OK;
        }
        if (strcasecmp(text, no[i]) == 0)
            return WEFT_OK;
    }
    return WEFT_ERR_INVALID;
}

weft_status weft_config_parse_timer(const char *text, weft_timer_kind *out)
{
    *out = WEFT_TIMER_AUTO;
    if (!text)
        return WEFT_ERR_INVALID;
    if (strcasecmp(text, "auto") == 0)
        return WEFT_OK;
    if (strcasecmp(text, "tsc") == 0) {
        *out = WEFT_TIMER_TSC;
        return WEFT_OK;
    }
    if (strcasecmp(text, "monotonic") == 0) {
        *out = WEFT_TIMER_MONOTONIC;
        return WEFT_OK;
    }
    return WEFT_ERR_INVALID;
}

/* Duration units, longest suffix first where one is a prefix of another
 * ("ms" before "m", "min" before "m"). */
typedef struct duration_unit {
    const char *suffix;
    uint64_t ns;
} duration_unit;

static const duration_unit duration_units[] = {
    {"ns", 1},
    {"us", 1000},
    {"ms", 1000000},
    {"min", UINT64_C(60000000000)},
    {"s", UINT64_C(1000000000)},
    {"m", UINT64_C(60000000000)},
    {"h", UINT64_C(3600000000000)},
};

/* The nanoseconds in fraction / scale units of unit_ns each (scale = 10^k,
 * k <= 9), rounded down, without overflow: with unit_ns = q * scale + r the
 * product is fraction * q + fraction * r / scale, and both terms fit
 * (fraction < scale <= 10^9, so fraction * q < unit_ns and r < scale). */
static uint64_t fraction_ns(uint64_t fraction, uint64_t scale, uint64_t unit_ns)
{
    return fraction * (unit_ns / scale) + fraction * (unit_ns % scale) / scale;
}

weft_status weft_config_parse_duration(const char *text, uint64_t *ns_out)
{
    *ns_out = 0;
    if (!text)
        return WEFT_ERR_INVALID;
    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return WEFT_ERR_INVALID;
    /* Digits by hand rather than strtod: no locale decimal comma, exact. */
    uint64_t whole = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)*text); text++) {
        unsigned digit = (unsigned)(*text - '0');
        if (whole > (UINT64_MAX - digit) / 10)
            too_large = true;
        else
            whole = whole * 10 + digit;
    }
    uint64_t fraction = 0, scale = 1; /* the fraction is fraction / scale */
    if (*text == '.') {
        text++;
        if (!isdigit((unsigned char)*text))
            return WEFT_ERR_INVALID;
        for (; isdigit((unsigned char)*text); text++) {
            if (scale < 1000000000u) { /* finer than a nanosecond of a second */
                fraction = fraction * 10 + (uint64_t)(*text - '0');
                scale *= 10;
            }
        }
    }
    uint64_t unit_ns = UINT64_C(1000000000); /* no unit: seconds */
    for (size_t i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
        size_t len = strlen(duration_units[i].suffix);
        if (strncasecmp(text, duration_units[i].suffix, len) == 0) {
            unit_ns = duration_units[i].ns;
            text += len;
            break;
        }
    }
    while (isspace((unsigned char)*text))
        text++;
    if (*text != '\0')
        return WEFT_ERR_INVALID;
    if (too_large || whole > UINT64_MAX / unit_ns)
        return WEFT_ERR_RANGE;
    uint64_t ns = whole * unit_ns;
    uint64_t part = fraction_ns(fraction, scale, unit_ns);
    if (ns > UINT64_MAX - part)
        return WEFT_ERR_RANGE;
    *ns_out = ns + part;
    return WEFT_OK;
}

/* One reader per value type. Each leaves the default in place and says so
 * when the text does not parse. */
static void read_bool(const char *name, const char *text, const char *def, bool *field)
{
    weft_config_parse_bool(def, field);
    if (text && weft_config_parse_bool(text, field) != WEFT_OK) {
        weft_log_error("%s='%s' is not a boolean (true/false, yes/no, on/off, 1/0); using %s",
                       name, text, def);
        weft_config_parse_bool(def, field);
    }
}

/* The most memory one allocation can get here: the machine's physical
 * memory, or less under an address-space or data limit. */
static uint64_t memory_the_machine_has(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t most = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    static const int limits[] = {RLIMIT_AS, RLIMIT_DATA};
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        struct rlimit rl;
        if (getrlimit(limits[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            (uint64_t)rl.rlim_cur < most)
            most = (uint64_t)rl.rlim_cur;
    }
    return most;
}

static void read_size(const char *name, const char *text, const char *def, uint64_t *field)
{
    weft_config_parse_size(def, field);
    if (!text)
        return;
    uint64_t value = 0;
    weft_status st = weft_config_parse_size(text, &value);
    bool per_thread = strcmp(name, "WEFT_BUFFER_SIZE") == 0;
    uint64_t most = per_thread ? memory_the_machine_has() : UINT64_MAX;
    if (st != WEFT_OK) {
        weft_log_error("%s='%s' is not a size (a number with optional K, M or G)%s; using %s",
                       name, text, st == WEFT_ERR_RANGE ? ": too large" : "", def);
    } else if (value < WEFT_CONFIG_MIN_BUFFER_SIZE) {
        weft_log_error("%s='%s' is below the minimum of 64K; using %s", name, text, def);
    } else if (value > most) {
        /* Every thread would fail to get it, at every event. */
        weft_log_error("%s='%s' is more than this machine can give a thread (%llu MiB of "
                       "memory); using %s",
                       name, text, (unsigned long long)(most >> 20), def);
    } else {
        *field = value;
    }
}

/* Why NAME cannot be a new experiment directory, or NULL when it can. The
 * directory gets suffixes (.1, .fork-PID) and OTF2's files below it
 * (traces/<id>.evt), which must fit in a path. */
#define DIRECTORY_SUFFIX_ROOM 64
static const char *bad_directory(const char *name, char *why, size_t len)
{
    size_t n = strlen(name);
    while (n > 1 && name[n - 1] == '/')
        n--;
    const char *last = name + n;
    while (last > name && last[-1] != '/')
        last--;
    size_t last_len = (size_t)(name + n - last);
    if (n == 1 && name[0] == '/')
        return "it is the root directory, not a new one";
    if ((last_len == 1 && last[0] == '.') || (last_len == 2 && last[0] == '.' && last[1] == '.'))
        return "it names an existing directory ('.' or '..'), not a new one";
    if (n + DIRECTORY_SUFFIX_ROOM > PATH_MAX) {
        snprintf(why, len, "it is too long (%zu characters; at most %d)", n,
                 PATH_MAX - DIRECTORY_SUFFIX_ROOM);
        return why;
    }
    for (const char *part = name; part < name + n;) {
        size_t part_len = strcspn(part, "/");
        if (part_len + 16 > NAME_MAX) {
            snprintf(why, len, "a part of it is too long (%zu characters; at most %d)", part_len,
                     NAME_MAX - 16);
            return why;
        }
        part += part_len + 1;
    }
    struct stat st;
    if (stat(name, &st) == 0 && !S_ISDIR(st.st_mode))
        return "it names an existing file, not a directory";
    return NULL;
}

static void read_path(const char *name, const char *text, const char *def, const char **field)
{
    (void)def;
    *field = NULL;
    if (!text)
        return;
    bool directory = strcmp(name, "WEFT_EXPERIMENT_DIRECTORY") == 0;
    if (text[0] == '\0') {
        weft_log_error("%s is set but empty; %s", name,
                       directory ? "using a generated directory name" : "no filter is applied");
        return;
    }
    char why[128];
    const char *bad = directory ? bad_directory(text, why, sizeof(why)) : NULL;
    if (bad) {
        weft_log_error("%s='%.200s%s': %s; using a generated directory name", name, text,
                       strlen(text) > 200 ? "..." : "", bad);
        return;
    }
    *field = text;
}

static void read_timer(const char *name, const char *text, const char *def,
                       weft_timer_kind *field)
{
    weft_config_parse_timer(def, field);
    if (text && weft_config_parse_timer(text, field) != WEFT_OK) {
        weft_log_error("%s='%s' is not a timer (auto, tsc, monotonic); using %s", name, text, def);
        weft_config_parse_timer(def, field);
    }
}

static void read_duration(const char *name, const char *text, const char *def, uint64_t *field)
{
    weft_config_parse_duration(def, field);
    if (!text)
        return;
    uint64_t value = 0;
    weft_status st = weft_config_parse_duration(text, &value);
    if (st != WEFT_OK)
        weft_log_error("%s='%s' is not a duration (a number with optional unit ns, us, ms, s, m "
                       "or h; plain numbers are seconds)%s; using %s",
                       name, text, st == WEFT_ERR_RANGE ? ": too large" : "", def);
    else
        *field = value;
}

/* A size that bounds something, or 0 for no bound. */
static void read_limit(const char *name, const char *text, const char *def, uint64_t *field)
{
    *field = 0;
    if (!text || strcmp(text, "0") == 0)
        return;
    read_size(name, text, def, field);
}

/* A list of names, parsed by whoever uses it; empty is the same as unset. */
static void read_names(const char *name, const char *text, const char *def, const char **field)
{
    (void)name;
    (void)def;
    *field = text && text[strspn(text, " \t,")] != '\0' ? text : NULL;
}

/* A count of at least 1. */
static void read_count(const char *name, const char *text, const char *def, uint64_t *field)
{
    *field = strtoull(def, NULL, 10);
    if (!text)
        return;
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (end == text || *end != '\0' || errno || value == 0 || text[0] == '-')
        weft_log_error("%s='%s' is not a count (a whole number of at least 1); using %s", name,
                       text, def);
    else
        *field = value;
}

#define READ_WEFT_CONFIG_BOOL read_bool
#define READ_WEFT_CONFIG_SIZE read_size
#define READ_WEFT_CONFIG_PATH read_path
#define READ_WEFT_CONFIG_TIMER read_timer
#define READ_WEFT_CONFIG_DURATION read_duration
#define READ_WEFT_CONFIG_NAMES read_names
#define READ_WEFT_CONFIG_LIMIT read_limit
#define READ_WEFT_CONFIG_COUNT read_count

void weft_config_load(weft_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
#define LOAD_ENTRY(NAME, field, type, def, meaning)                                               \
    READ_##type("WEFT_" #NAME, getenv("WEFT_" #NAME), def, &cfg->field);
    WEFT_CONFIG_LIST(LOAD_ENTRY)
#undef LOAD_ENTRY
}
