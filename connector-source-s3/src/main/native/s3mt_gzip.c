/*
 * JNI binding of libdeflate's whole-buffer gzip decompressor for NativeGzip (io.github.s3mergetree.
 * source.s3.format.compression). libdeflate is opened with dlopen at run time (Debian's libdeflate0 ships
 * libdeflate.so.0; no headers or link-time dependency are needed): where it is missing, init()
 * returns false and the JDK's GZIPInputStream does all the work.
 *
 * Built by connector-source-s3's pom.xml (profile native-gzip, Linux x86-64) with gcc.
 */
#include <dlfcn.h>
#include <jni.h>
#include <stddef.h>

/* libdeflate.h (MIT), the three entry points used, by their documented signatures. */
struct libdeflate_decompressor;
typedef struct libdeflate_decompressor *(*alloc_fn)(void);
typedef int (*gzip_ex_fn)(struct libdeflate_decompressor *, const void *, size_t, void *, size_t,
                          size_t *, size_t *);
typedef void (*free_fn)(struct libdeflate_decompressor *);

static alloc_fn p_alloc;
static gzip_ex_fn p_gzip_ex;
static free_fn p_free;

JNIEXPORT jboolean JNICALL
Java_io_github_s3mergetree_source_s3_format_compression_NativeGzip_init(JNIEnv *env, jclass cls) {
    void *lib = dlopen("libdeflate.so.0", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        return JNI_FALSE;
    }
    p_alloc = (alloc_fn)dlsym(lib, "libdeflate_alloc_decompressor");
    p_gzip_ex = (gzip_ex_fn)dlsym(lib, "libdeflate_gzip_decompress_ex");
    p_free = (free_fn)dlsym(lib, "libdeflate_free_decompressor");
    return p_alloc != NULL && p_gzip_ex != NULL && p_free != NULL ? JNI_TRUE : JNI_FALSE;
}

/*
 * Decompresses the gzip member at in[inOff, inOff + inLen) into out[outOff, outOff + outLen), both
 * direct buffers (off the Java heap: no GC pinning, no copy). Returns (bytes of input consumed <<
 * 32) | bytes written on success, else -(libdeflate's result: 1 bad data, 2 short output, 3
 * insufficient space), or -100 when memory ran out or a buffer is not direct. The bounds are
 * checked by the Java caller.
 */
JNIEXPORT jlong JNICALL
Java_io_github_s3mergetree_source_s3_format_compression_NativeGzip_member(JNIEnv *env, jclass cls,
                                                               jobject in, jint inOff, jint inLen,
                                                               jobject out, jint outOff,
                                                               jint outLen) {
    char *src = (*env)->GetDirectBufferAddress(env, in);
    char *dst = (*env)->GetDirectBufferAddress(env, out);
    if (src == NULL || dst == NULL) {
        return -100;
    }
    struct libdeflate_decompressor *d = p_alloc();
    if (d == NULL) {
        return -100;
    }
    size_t used_in = 0;
    size_t written = 0;
    int r = p_gzip_ex(d, src + inOff, (size_t)inLen, dst + outOff, (size_t)outLen, &used_in,
                      &written);
    p_free(d);
    if (r != 0) {
        return -(jlong)r;
    }
    return ((jlong)used_in << 32) | (jlong)written;
}
