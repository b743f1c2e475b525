/* static_tls_flag.c - fails when the ELF shared library named on the command line carries
 * DF_STATIC_TLS in its DT_FLAGS (readelf -d: "FLAGS STATIC_TLS"), the mark the linker leaves
 * on a library that uses the initial-exec TLS model. glibc refuses to dlopen such a library
 * ("cannot allocate memory in static TLS block") once other libraries have used up the
 * surplus of the static TLS block; xgd reads its thread-local variables through TLS
 * descriptors or __tls_get_addr instead (CMakeLists.txt, sprite_batch.c's draw_memo).
 *
 *   xgd-static-tls-flag LIBRARY
 *
 * Reads the dynamic section through the program headers (PT_DYNAMIC) of a 32- or 64-bit ELF
 * file of this machine's byte order. Exit 0: no DF_STATIC_TLS; 1: present, or the file is
 * not such an ELF shared library. */
#define _POSIX_C_SOURCE 200809L
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    unsigned char *data = NULL;
    size_t used = 0, cap = 0;
    for (;;) {
        if (used == cap) {
            cap = cap != 0 ? cap * 2 : 1u << 20;
            unsigned char *grown = realloc(data, cap);
            if (grown == NULL) break;
            data = grown;
        }
        size_t n = fread(data + used, 1, cap - used, f);
        used += n;
        if (n == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        return NULL;
    }
    *size = used;
    return data;
}

/* The flags word of DT_FLAGS (0 when absent) into *flags; the dynamic section is found through
   the program headers, as the loader finds it. The ELF class's types come in through the macro
   so that one body serves both. Returns a message on a malformed file, NULL otherwise. */
#define DYNAMIC_FLAGS(Ehdr, Phdr, Dyn)                                                           \
    do {                                                                                         \
        Ehdr eh;                                                                                 \
        if (size < sizeof eh) return "truncated ELF header";                                     \
        memcpy(&eh, data, sizeof eh);                                                            \
        if (eh.e_type != ET_DYN) return "not a shared object (e_type is not ET_DYN)";            \
        if (eh.e_phentsize != sizeof(Phdr) || eh.e_phoff > size ||                               \
            (size - eh.e_phoff) / sizeof(Phdr) < eh.e_phnum)                                     \
            return "program headers out of the file";                                           \
        for (unsigned i = 0; i < eh.e_phnum; i++) {                                              \
            Phdr ph;                                                                             \
            memcpy(&ph, data + eh.e_phoff + (size_t)i * sizeof ph, sizeof ph);                   \
            if (ph.p_type != PT_DYNAMIC) continue;                                               \
            if (ph.p_offset > size || size - ph.p_offset < ph.p_filesz)                          \
                return "dynamic section out of the file";                                        \
            *found_dynamic = 1;                                                                  \
            for (size_t at = 0; at + sizeof(Dyn) <= ph.p_filesz; at += sizeof(Dyn)) {            \
                Dyn d;                                                                           \
                memcpy(&d, data + ph.p_offset + at, sizeof d);                                   \
                if (d.d_tag == DT_NULL) break;                                                   \
                if (d.d_tag == DT_FLAGS) *flags = (uint64_t)d.d_un.d_val;                        \
            }                                                                                    \
        }                                                                                        \
        return NULL;                                                                             \
    } while (0)

static const char *dynamic_flags64(const unsigned char *data, size_t size, uint64_t *flags,
                                   int *found_dynamic)
{
    DYNAMIC_FLAGS(Elf64_Ehdr, Elf64_Phdr, Elf64_Dyn);
}

static const char *dynamic_flags32(const unsigned char *data, size_t size, uint64_t *flags,
                                   int *found_dynamic)
{
    DYNAMIC_FLAGS(Elf32_Ehdr, Elf32_Phdr, Elf32_Dyn);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
        return 1;
    }
    size_t size = 0;
    unsigned char *data = read_file(argv[1], &size);
    if (data == NULL) {
        perror(argv[1]);
        return 1;
    }
    const uint16_t one = 1;
    const unsigned char native = *(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB;
    const char *error = NULL;
    uint64_t flags = 0;
    int found_dynamic = 0;
    if (size < EI_NIDENT || memcmp(data, ELFMAG, SELFMAG) != 0) error = "not an ELF file";
    else if (data[EI_DATA] != native) error = "not of this machine's byte order";
    else if (data[EI_CLASS] == ELFCLASS64) error = dynamic_flags64(data, size, &flags, &found_dynamic);
    else if (data[EI_CLASS] == ELFCLASS32) error = dynamic_flags32(data, size, &flags, &found_dynamic);
    else error = "unknown ELF class";
    free(data);
    if (error == NULL && !found_dynamic) error = "no dynamic section (PT_DYNAMIC)";
    if (error != NULL) {
        fprintf(stderr, "%s: %s\n", argv[1], error);
        return 1;
    }
    if (flags & DF_STATIC_TLS) {
        fprintf(stderr,
                "%s: DT_FLAGS has DF_STATIC_TLS (flags 0x%llx): it uses the initial-exec TLS "
                "model, and a late dlopen() of it can fail with \"cannot allocate memory in "
                "static TLS block\"\n",
                argv[1], (unsigned long long)flags);
        return 1;
    }
    printf("%s: no DF_STATIC_TLS (DT_FLAGS 0x%llx)\n", argv[1], (unsigned long long)flags);
    return 0;
}
