/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft convert [OPTIONS] OLD NEW`: converts a legacy trace into an OTF2
 * trace in the new directory NEW. The format is told from OLD's first bytes
 * (or --from): EPILOG, merged or as an EPIK archive (convert_epilog.c,
 * convert_epik.c), and OTF version 1 (convert_otf1.c). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"
#include "convert_epilog.h"
#include "convert_otf1.h"
#include "escape.h"
#include "files.h"
#include "progress.h"

static void print_help(void)
{
    printf("usage: weft convert [OPTIONS] OLD NEW\n"
           "\n"
           "Converts the legacy trace OLD into an OTF2 trace in the new directory NEW\n"
           "(NEW/traces.otf2), which loads wherever a weft trace loads. OLD is told by\n"
           "its contents: an EPILOG trace (KOJAK, Scalasca 1.x) either merged into one\n"
           "file or as an EPIK archive directory (epik.esd, epik.map, ELG/*); plain or\n"
           "gzip-compressed, either byte order; or an OTF version 1 trace (its NAME.otf\n"
           "or NAME; VampirTrace, elg2otf; plain or compressed streams).\n"
           "\n"
           "Options:\n"
           "  --from=FORMAT      read OLD as FORMAT (epilog, otf) whatever its contents\n"
           "  --keep-partial     keep what was converted when OLD turns out damaged\n"
           "                     (by default NEW is removed again); when the damage only\n"
           "                     leaves events unread (no events at all, an EPIK rank\n"
           "                     without its map section, a cut OTF1 master file), convert\n"
           "                     what can be read. The exit status stays 1\n"
           "  --progress[=WHEN]  progress on stderr: auto (default: on a terminal, after\n"
           "                     2 s), always, never\n"
           "  -h, --help         show this help\n"
           "\n"
           "A converted trace never holds fewer events than OLD without an error. OLD\n"
           "and its files must be regular files (a named pipe is refused). Memory is\n"
           "bounded by OLD's size: an id beyond what its definitions can number is\n"
           "damage, not a table to allocate.\n"
           "\n"
           "Exit status: 0 converted; 1 OLD is damaged or not a known format, or NEW\n"
           "cannot be written (one line on stderr says which and where); 2 usage.\n");
}

/* One line and true when PATH, or the OTF master file PATH.otf that stands
 * for it, is a named pipe, a device or a socket: opening or reading it would
 * block or never end. */
static bool special_input(const char *path)
{
    const char *kind = weft__cli_special_file(path);
    char master[4200];
    if (!kind && access(path, F_OK) != 0) {
        snprintf(master, sizeof(master), "%s.otf", path);
        kind = weft__cli_special_file(master);
        path = master;
    }
    if (kind)
        weft__cli_line(stderr,
                       "weft convert: '%s' is %s, not a regular file; weft convert reads "
                       "only regular files",
                       path, kind);
    return kind != NULL;
}

/* The format of PATH from its first bytes; NULL when unknown. */
static const char *detect(const char *path)
{
    struct stat st;
    if (weft__convert_is_otf1(path))
        return "otf";
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        char esd[4200];
        snprintf(esd, sizeof(esd), "%s/epik.esd", path);
        return access(esd, R_OK) == 0 ? "epilog" : "directory";
    }
    gzFile f = gzopen(path, "rb");
    char head[8] = {0};
    int got = f ? gzread(f, head, sizeof(head)) : -1;
    if (f)
        gzclose(f);
    if (got >= 7 && memcmp(head, "EPILOG", 7) == 0)
        return "epilog";
    return got < 0 ? "unreadable" : NULL;
}

int weft__cli_convert(int argc, char **argv)
{
    elg_options o = {.progress = WEFT_PROGRESS_AUTO};
    const char *from = NULL, *operands[2] = {NULL, NULL};
    int count = 0;
    for (int i = 1; i < argc; i++) {
        const char *value;
        if (weft__cli_is_help(argv[i])) {
            print_help();
            return WEFT_CLI_EXIT_OK;
        } else if (weft__cli_option_value(argc, argv, &i, "--from", true, &value)) {
            from = value;
            if (!from || (strcmp(from, "epilog") != 0 && strcmp(from, "otf") != 0))
                return weft__cli_usage_error("convert", "--from takes epilog or otf, not '%s'",
                                             from ? from : "");
        } else if (strcmp(argv[i], "--keep-partial") == 0) {
            o.keep_partial = true;
        } else if (weft__cli_option_value(argc, argv, &i, "--progress", false, &value)) {
            weft_progress_mode mode;
            if (!weft__cli_parse_progress(value, &mode))
                return weft__cli_usage_error("convert", "--progress takes auto, always or never");
            o.progress = (int)mode;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return weft__cli_usage_error("convert", "unknown option '%s'", argv[i]);
        } else if (count < 2) {
            operands[count++] = argv[i];
        } else {
            return weft__cli_usage_error("convert", "too many arguments");
        }
    }
    if (count < 2)
        return weft__cli_usage_error("convert", "give the old trace and the new directory");
    o.input = operands[0];
    o.output = operands[1];
    if (special_input(o.input))
        return WEFT_CLI_EXIT_FAILURE;
    const char *format = from ? from : detect(o.input);
    if (format && strcmp(format, "otf") == 0)
        return weft__convert_otf1(o.input, o.output, o.keep_partial, o.progress);
    if (!format || strcmp(format, "epilog") != 0) {
        weft__cli_line(stderr, "weft convert: '%s' %s", o.input,
                       !format ? "is not a trace weft convert knows (EPILOG, OTF)"
                       : strcmp(format, "unreadable") == 0
                           ? "cannot be read"
                           : "is a directory without epik.esd: not an EPIK archive");
        return WEFT_CLI_EXIT_FAILURE;
    }
    return weft__convert_epilog(&o);
}
