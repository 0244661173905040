#include "packed_container.h"

#include <zstd.h>

#include <algorithm>
#include <memory>

namespace kerchunk::pack::internal {

namespace {

// Texts up to this size get the strongest level (22): tiny indexes are all metadata text, where
// every byte shows, and there it costs well under a millisecond. Above, its tables cost more
// than they save now that the binary fields are in the blob section: on the 7 KB of JSON of a
// 31-file binary container level 22 took 1.4 ms for 806 bytes, level 9 0.11 ms for 811; on the
// 35 KB of a 300-file one 8.4 ms for 1,305 bytes against 0.19 ms for 1,326. (Over the 187
// indexes of the shared corpus, 4 KiB instead of 16 KiB adds 2.6 KB of 2.6 MB.)
constexpr size_t kSmallText = size_t{4} << 10;
// Larger texts: level 9 up to 1 MiB, 3 above, where pack's own time is the budget. (In the
// text-only container, whose JSON holds base64 columns: on 6 MB of base64 level 3 takes 20 ms,
// level 9 100 ms, level 19 2.1 s; on 875,402 references level 6 made pack 1.9x slower.)
constexpr size_t kMediumText = size_t{1} << 20;
constexpr int kMediumTextLevel = 9;
constexpr int kLargeTextLevel = 3;
// A text that the first level shrinks below this share is mostly text (metadata, JSON-encoded
// records) rather than base64, and gets level 19 as `zstd -19` would (6 MB of text records
// compress 1-2% better for ~6 s) -- when that can matter: 1-2% of less than 4 KiB is a few dozen
// bytes, not worth milliseconds.
constexpr double kWorthStrongLevel = 0.4;
constexpr size_t kWorthStrongBytes = size_t{4} << 10;
constexpr int kStrongLevel = 19;
// The blob section: varints, Rice codes, inline chunks. Level 3 up to 1 MiB; level 1 above,
// where level 3 costs ~15 ns a reference (160 MB/s on 2 MB of a 875,402-reference set) against
// ~8 for level 1, for 1.22 MB instead of 1.45 MB.
constexpr size_t kMediumBlobs = size_t{1} << 20;
constexpr int kMediumBlobLevel = 3;
constexpr int kLargeBlobLevel = 1;

// Whether a text is compressed against the dictionary. It supplies the vocabulary a small text
// has too little of to learn; a text of megabytes has its own, and there the dictionary only
// costs (zstd -19 of the 6 MB NEON index: 1,782,328 bytes with it, 1,781,613 without, against
// 1,782,112 for `zstd -19` of the Kerchunk JSON). A frame compressed without it is still
// decompressed with it: its matches never reach before its own first byte, so the dictionary
// in front changes nothing, and the format stays one rule for readers.
bool UsesDictionary(std::string_view text) { return text.size() <= kMediumText; }

std::string Compress(std::string_view text, int level) {
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!cctx) throw std::bad_alloc();
  const std::string_view dict = UsesDictionary(text) ? ContainerDictionary() : std::string_view();
  std::string out(kContainerMagic);
  out.resize(kContainerMagic.size() + ZSTD_compressBound(text.size()));
  const size_t n = ZSTD_compress_usingDict(cctx.get(), out.data() + kContainerMagic.size(),
                                           out.size() - kContainerMagic.size(), text.data(),
                                           text.size(), dict.data(), dict.size(), level);
  // With an output buffer of ZSTD_compressBound, only allocation can fail.
  if (ZSTD_isError(n)) throw std::bad_alloc();
  out.resize(kContainerMagic.size() + n);
  return out;
}

}  // namespace

std::string WrapContainer(std::string_view json_text) {
  if (json_text.size() <= kSmallText) return Compress(json_text, ZSTD_maxCLevel());
  std::string fast =
      Compress(json_text, json_text.size() <= kMediumText ? kMediumTextLevel : kLargeTextLevel);
  if (static_cast<double>(fast.size()) >
          kWorthStrongLevel * static_cast<double>(json_text.size()) ||
      fast.size() < kWorthStrongBytes) {
    return fast;
  }
  std::string best = Compress(json_text, kStrongLevel);
  return best.size() < fast.size() ? best : fast;
}

namespace {

// Decompresses exactly one zstd frame that records its content size (at most
// kMaxContainerTextBytes), with the container dictionary or none. `what` names the part in
// errors ("packed container: <what>: ...").
Result<std::string> DecompressFrame(std::string_view frame, bool with_dictionary,
                                    std::string_view what) {
  const unsigned long long recorded = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (recorded == ZSTD_CONTENTSIZE_ERROR || recorded == ZSTD_CONTENTSIZE_UNKNOWN) {
    return DataLossError("packed container: {}: no zstd frame with a recorded size", what);
  }
  const uint64_t size = recorded;
  if (size > kMaxContainerTextBytes) {
    return DataLossError("packed container: {}: {} bytes, more than a reader takes ({})", what,
                         size, kMaxContainerTextBytes);
  }
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) throw std::bad_alloc();
  if (with_dictionary) {
    const std::string_view dict = ContainerDictionary();
    // A dictionary that does not start with zstd's dictionary magic is raw content.
    const size_t loaded = ZSTD_DCtx_loadDictionary(dctx.get(), dict.data(), dict.size());
    if (ZSTD_isError(loaded)) throw std::bad_alloc();
  }
  // Streamed, the output growing with what actually decodes: a frame that claims gigabytes
  // makes the reader allocate only what its bytes expand to.
  std::string text;
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  for (size_t ret = 1; ret != 0;) {
    const size_t at = text.size();
    const size_t step = std::min<uint64_t>(size - at + 1, uint64_t{1} << 24);
    text.resize(at + step);
    ZSTD_outBuffer o{text.data() + at, step, 0};
    ret = ZSTD_decompressStream(dctx.get(), &o, &in);
    text.resize(at + o.pos);
    if (ZSTD_isError(ret)) {
      return DataLossError("packed container: {}: zstd: {}", what, ZSTD_getErrorName(ret));
    }
    if (text.size() > size || (ret != 0 && in.pos == in.size && o.pos < o.size)) {
      return DataLossError(
          "packed container: {}: the zstd frame does not hold the {} bytes it "
          "records",
          what, size);
    }
  }
  if (text.size() != size) {
    return DataLossError("packed container: {}: the zstd frame holds {} bytes, it records {}", what,
                         text.size(), size);
  }
  return text;
}

// The length of the zstd frame at the start of `bytes`; DataLoss when there is none.
Result<size_t> FrameLength(std::string_view bytes, std::string_view what) {
  const size_t n = ZSTD_findFrameCompressedSize(bytes.data(), bytes.size());
  if (ZSTD_isError(n)) {
    return DataLossError("packed container: {}: no complete zstd frame ({})", what,
                         ZSTD_getErrorName(n));
  }
  return n;
}

}  // namespace

std::string WrapBinaryContainer(std::string_view json_text, std::string_view blobs) {
  std::string out = WrapContainer(json_text);
  out.replace(0, kBinaryContainerMagic.size(), kBinaryContainerMagic);
  // Generator columns and lengths streams are varints and Rice codes, inline values mostly
  // compressed chunks: zstd rarely gains much on them, and what it does not gain costs open time.
  std::string compressed(ZSTD_compressBound(blobs.size()), '\0');
  const size_t n =
      blobs.empty()
          ? 0
          : ZSTD_compress(compressed.data(), compressed.size(), blobs.data(), blobs.size(),
                          blobs.size() <= kMediumBlobs ? kMediumBlobLevel : kLargeBlobLevel);
  if (ZSTD_isError(n)) throw std::bad_alloc();  // with a bound-sized buffer only allocation fails
  const bool zstd = !blobs.empty() && n < blobs.size() - blobs.size() / 10;
  AppendBlobSection(zstd ? BlobCoding::kZstd : BlobCoding::kRaw,
                    zstd ? std::string_view(compressed.data(), n) : blobs, out);
  return out;
}

void AppendBlobSection(BlobCoding coding, std::string_view stored, std::string& out) {
  out += static_cast<char>(coding);
  uint64_t length = stored.size();
  for (int i = 0; i < 8; ++i, length >>= 8) out += static_cast<char>(length & 0xff);
  out += stored;
}

Result<UnwrappedContainer> UnwrapContainer(std::string_view bytes) {
  UnwrappedContainer out;
  if (!IsContainer(bytes)) {
    out.text = std::string(bytes);
    return out;
  }
  out.binary = bytes.starts_with(kBinaryContainerMagic);
  const std::string_view rest = bytes.substr(kContainerMagic.size());
  KERCHUNK_ASSIGN_OR_RETURN(const size_t frame, FrameLength(rest, "packed JSON"));
  if (!out.binary && frame != rest.size()) {
    return DataLossError("packed container: not exactly one zstd frame after the magic");
  }
  KERCHUNK_ASSIGN_OR_RETURN(out.text, DecompressFrame(rest.substr(0, frame), true, "packed JSON"));
  if (!out.binary) return out;
  if (frame == rest.size()) {
    return DataLossError("packed container: the blob section is missing after the JSON frame");
  }
  // The coding, the stored length, exactly that many bytes: a truncated file, or anything
  // appended, is refused rather than read as a shorter or longer section.
  const std::string_view head = rest.substr(frame);
  if (head.size() < 9) return DataLossError("packed container: the blob section's header is cut");
  uint64_t stored = 0;
  for (int i = 8; i >= 1; --i) stored = stored << 8 | static_cast<uint8_t>(head[i]);
  if (stored != head.size() - 9) {
    return DataLossError("packed container: the blob section holds {} bytes, its header says {}",
                         head.size() - 9, stored);
  }
  const std::string_view section = head.substr(9);
  switch (static_cast<BlobCoding>(head[0])) {
    case BlobCoding::kRaw:
      out.raw_blobs = section;
      return out;
    case BlobCoding::kZstd: {
      KERCHUNK_ASSIGN_OR_RETURN(const size_t length, FrameLength(section, "blob section"));
      if (length != section.size()) {
        return DataLossError("packed container: bytes after the blob section's zstd frame");
      }
      KERCHUNK_ASSIGN_OR_RETURN(out.blob_copy, DecompressFrame(section, false, "blob section"));
      return out;
    }
  }
  return DataLossError("packed container: unknown blob section coding {}",
                       static_cast<unsigned>(static_cast<uint8_t>(head[0])));
}

}  // namespace kerchunk::pack::internal
