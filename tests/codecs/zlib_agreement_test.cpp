// The zlib codec decodes known-size streams with libdeflate first and with zlib when that fails.
// These tests hold it to zlib's own verdict (zlib's inflate with the zlib wrapper is what
// numcodecs, and so every Python reader of the references, uses): over corrupted, truncated and
// padded streams it accepts exactly the streams zlib accepts, with the same bytes, and gathers
// spans of streams too big to decode whole through zlib as it streams.
#include <gtest/gtest.h>
#include <zlib.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kerchunk/codecs/codec.h"

namespace kerchunk::codecs {
namespace {

// zlib's verdict: the bytes of the zlib stream at the front of `in` if it is whole, its checksum
// right and it decodes to exactly `size` bytes; nothing otherwise. Bytes after the stream are
// ignored, as Python's zlib.decompress ignores them.
std::optional<std::string> ZlibVerdict(const std::string& in, size_t size) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return std::nullopt;
  std::string out(size + 1, '\0');  // one byte more: a longer stream is caught, not cut
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&zs, Z_FINISH);
  const size_t produced = zs.total_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced != size) return std::nullopt;
  out.resize(size);
  return out;
}

// Bytes of mixed texture: runs (long matches), a ramp and noise (literals), so that streams have
// stored, fixed and dynamic Huffman blocks between them.
std::string Payload(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) {
    switch ((i / 512) % 3) {
      case 0:
        s[i] = 0;
        break;
      case 1:
        s[i] = static_cast<char>(i / 7);
        break;
      default:
        s[i] = static_cast<char>(rng());
    }
  }
  return s;
}

std::string Compress(const std::string& raw, int level) {
  uLongf size = compressBound(raw.size());
  std::string out(size, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                      reinterpret_cast<const Bytef*>(raw.data()), raw.size(), level),
            Z_OK);
  out.resize(size);
  return out;
}

// One damaged copy of `stream`: bytes flipped, cut short, or junk appended.
std::string Damage(std::mt19937_64& rng, std::string stream) {
  switch (rng() % 4) {
    case 0:
      for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k)
        stream[rng() % stream.size()] ^= static_cast<char>(1 + rng() % 255);
      break;
    case 1:
      stream.resize(rng() % stream.size());
      break;
    case 2:
      stream += std::string(1 + rng() % 9, static_cast<char>(rng()));
      break;
    default:
      stream[rng() % std::min<size_t>(stream.size(), 3)] ^= static_cast<char>(1 << (rng() % 8));
  }
  return stream;
}

TEST(ZlibAgreementTest, AcceptsExactlyWhatZlibAcceptsWithTheSameBytes) {
  std::mt19937_64 rng(29);
  auto codec = *MakeCodec(*json::Value::Parse(R"({"id": "zlib", "level": 1})"));
  int accepted = 0, refused = 0;
  for (int stream_index = 0; stream_index < 40; ++stream_index) {
    const std::string raw = Payload(rng, 1 + rng() % 20000);
    const std::string stream = Compress(raw, static_cast<int>(stream_index % 10));
    for (int trial = 0; trial < 60; ++trial) {
      const std::string input = trial == 0 ? stream : Damage(rng, stream);
      // The size the reference says, and sizes one off, which must fail the same way.
      for (size_t size : {raw.size(), raw.size() - 1, raw.size() + 1}) {
        const std::optional<std::string> expected = ZlibVerdict(input, size);
        auto got = codec->Decode(input, DecodedSize::Exactly(size));
        ASSERT_EQ(got.ok(), expected.has_value())
            << "stream " << stream_index << " trial " << trial << " size " << size << ": "
            << (got.ok() ? "accepted what zlib refuses" : got.status().ToString());
        if (!got.ok()) {
          EXPECT_EQ(got.status().code(), StatusCode::kDataLoss) << got.status().ToString();
          ++refused;
          continue;
        }
        ASSERT_EQ(*got, *expected) << "stream " << stream_index << " trial " << trial;
        const std::vector<ByteSpan> spans = {{0, size / 3}, {size / 2, size / 4}};
        auto gathered = codec->DecodeSpans(input, size, spans);
        ASSERT_TRUE(gathered.ok()) << gathered.status().ToString();
        EXPECT_EQ(*gathered, expected->substr(0, size / 3) + expected->substr(size / 2, size / 4));
        ++accepted;
      }
    }
  }
  // Both verdicts were exercised, many times.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 1000);
}

// Above the size decoded whole (4 MiB), spans are gathered while zlib streams through a small
// buffer; they are still the spans of the decoded stream, and a wrong size still fails.
TEST(ZlibAgreementTest, SpansOfAStreamTooBigToDecodeWhole) {
  std::mt19937_64 rng(31);
  std::string raw(5 * 1024 * 1024 + 123, '\0');
  for (size_t i = 0; i < raw.size(); i += 4096) raw[i] = static_cast<char>(rng());
  const std::string stream = Compress(raw, 1);
  auto codec = *MakeCodec(*json::Value::Parse(R"({"id": "zlib", "level": 1})"));
  const std::vector<ByteSpan> spans = {
      {0, 10}, {65530, 20}, {4 * 1024 * 1024 - 7, 70000}, {raw.size() - 5, 5}};
  auto got = codec->DecodeSpans(stream, raw.size(), spans);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  std::string expected;
  for (const ByteSpan& s : spans) expected += raw.substr(s.offset, s.length);
  EXPECT_EQ(*got, expected);
  EXPECT_EQ(codec->DecodeSpans(stream, raw.size() + 1, spans).status().code(),
            StatusCode::kDataLoss);
  // A flip inside a run of zeros often only changes which earlier zeros a match copies, and the
  // stream still decodes to the same bytes; zlib decides, here as above.
  int refused = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const std::string flipped = Damage(rng, stream);
    const std::optional<std::string> whole = ZlibVerdict(flipped, raw.size());
    auto gathered = codec->DecodeSpans(flipped, raw.size(), spans);
    ASSERT_EQ(gathered.ok(), whole.has_value()) << "trial " << trial;
    if (gathered.ok()) {
      EXPECT_EQ(*gathered, expected) << "trial " << trial;
    } else {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace kerchunk::codecs
