// The zlib codec checks the zlib header and Adler-32 itself (faster than zlib's wrapper) and
// decodes the deflate data first with its own DeflateDecoder, then, where that gives up, with
// zlib's raw inflate. These tests hold the whole to zlib's own verdict (zlib's inflate with the
// zlib wrapper is what numcodecs, and so every Python reader of the references, uses): over
// corrupted, truncated and padded streams it accepts exactly the streams zlib accepts, with the
// same bytes, whole and by spans. libdeflate 1.14, tried in front of zlib before, did not pass
// them (see AStreamLibdeflateAcceptsIsRefused).
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "kerchunk/codecs/codec.h"
#include "support/zlib_verdict.h"

namespace kerchunk::codecs {
namespace {

using testing::ZlibVerdict;

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

// Spans of a stream much bigger than the 64 KiB buffer zlib streams through are still the spans
// of the decoded stream, and a wrong size still fails.
TEST(ZlibAgreementTest, SpansOfAStreamManyStreamingBuffersLong) {
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

// Found by the codecs fuzz target when libdeflate decoded streams before zlib: libdeflate 1.14
// decodes this stream to 256 bytes with a matching Adler-32, where zlib stops at byte 5 with
// "invalid distance code" (RFC 1951 distance codes 30 and 31 never occur in valid data). A
// codec that accepted it would let `verify --deep` pass a chunk that numcodecs cannot read.
TEST(ZlibAgreementTest, AStreamLibdeflateAcceptsIsRefused) {
  const char kStream[] =
      "\x78\x01\x0d\xc3\x05\x52\x02\x40\x00\x00\xc0\x03\xa5\xa4\x3b\xa4"
      "\x41\xa5\xbb\x24\xff\xff\x2b\x76\x66\x36\x84\x10\x22\x46\xfd\xf0"
      "\xd3\x98\x71\x13\x26\x4d\xf9\x65\xda\x8c\x59\x73\xe6\x2d\x58\xb4"
      "\x64\xd9\x8a\x55\x6b\xd6\x6d\xd8\xb4\xe5\xb7\x6d\x3b\x76\xed\xd9"
      "\x77\xe0\xd0\x91\x63\x7f\xfc\xf5\xcf\x89\x53\x67\xce\x5d\xb8\x74"
      "\xe5\xda\x8d\x5b\x77\xee\x3d\x78\xf4\xe4\xd9\x8b\xff\x5e\xbd\x79"
      "\xf7\xe1\xd3\x97\x6f\xab\x9e\x07\xe1";
  const std::string stream(kStream, sizeof(kStream) - 1);
  ASSERT_EQ(stream.size(), 105u);
  EXPECT_FALSE(ZlibVerdict(stream, 256).has_value());
  auto codec = *MakeCodec(*json::Value::Parse(R"({"id": "zlib"})"));
  auto whole = codec->Decode(stream, DecodedSize::Exactly(256));
  ASSERT_FALSE(whole.ok());
  EXPECT_EQ(whole.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(whole.status().message().find("invalid distance code"), std::string::npos)
      << whole.status().message();
  const ByteSpan span{64, 85};
  EXPECT_FALSE(codec->DecodeSpans(stream, 256, std::span(&span, 1)).ok());
}

}  // namespace
}  // namespace kerchunk::codecs
