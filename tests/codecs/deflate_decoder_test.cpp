// The DeflateDecoder that decodes zlib streams before zlib does (src/codecs/deflate_decoder.h).
// Two properties make it safe and worth having: what it accepts, zlib accepts with the same
// bytes (else `verify --deep` could pass a chunk numcodecs cannot read), and it does not give up
// on the streams zlib's deflate writes (else it only costs time). Streams come from zlib at
// every level and strategy, damaged copies of them, and hand-made blocks for the Huffman codes
// zlib's deflate never writes (a lone code, an incomplete one).
#include "codecs/deflate_decoder.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "codecs/adler32.h"
#include "support/zlib_deflate.h"
#include "support/zlib_verdict.h"

namespace kerchunk::codecs::internal {
namespace {

using Step = DeflateDecoder::Step;

// Texture that gives each path of the decoder work: runs (distance-1 matches), short periods
// (distances 2-7, copied byte by byte), longer periods (word-wise copies), literals.
std::string Payload(std::mt19937_64& rng, size_t n, int kind) {
  std::string s(n, '\0');
  const size_t period = 2 + rng() % 40;
  for (size_t i = 0; i < n; ++i) {
    switch (kind) {
      case 0:
        s[i] = static_cast<char>((i / 1000) % 3);
        break;
      case 1:
        s[i] = static_cast<char>((i % period) * 37);
        break;
      case 2:
        s[i] = static_cast<char>(rng());
        break;
      default:
        s[i] = (i / 300) % 2 ? static_cast<char>(rng() % 4) : static_cast<char>(i % period);
    }
  }
  return s;
}

std::string ZlibStream(const std::string& raw, int level, int strategy) {
  return testing::ZlibDeflate(raw, level, strategy);
}

// The zlib codec's fast path, in short: the decoder on the deflate data after the 2-byte
// header, output at most `size` bytes, then the Adler-32. The header is not looked at here
// (the codec checks it as zlib does).
std::optional<std::string> DecodeWhole(const std::string& stream, size_t size,
                                       size_t* consumed = nullptr) {
  if (stream.size() < 2) return std::nullopt;
  const std::string_view deflate = std::string_view(stream).substr(2);
  DeflateDecoder decoder(deflate);
  std::string out(size, '\0');
  size_t pos = 0;
  if (decoder.Run(out.data(), pos, size, /*can_slide=*/false) != Step::kDone) return std::nullopt;
  if (consumed) *consumed = decoder.ConsumedBytes();
  const std::string_view rest = deflate.substr(decoder.ConsumedBytes());
  out.resize(pos);
  if (rest.size() < 4) return std::nullopt;
  const auto* t = reinterpret_cast<const unsigned char*>(rest.data());
  const uint32_t stored = uint32_t{t[0]} << 24 | uint32_t{t[1]} << 16 | uint32_t{t[2]} << 8 | t[3];
  if (stored != Adler32(1, out) || pos != size) return std::nullopt;
  return out;
}

// The same through a window of `window` bytes that slides, keeping 32 KiB of history.
std::optional<std::string> DecodeSliding(const std::string& stream, size_t window) {
  DeflateDecoder decoder(std::string_view(stream).substr(2));
  std::string buffer(window, '\0'), out;
  size_t pos = 0, handed = 0;
  while (true) {
    const Step step = decoder.Run(buffer.data(), pos, window, /*can_slide=*/true);
    if (step == Step::kGiveUp) return std::nullopt;
    out.append(buffer, handed, pos - handed);
    if (step == Step::kDone) return out;
    const size_t keep = std::min<size_t>(pos, 32768);
    buffer.replace(0, keep, buffer, pos - keep, keep);
    pos = handed = keep;
  }
}

TEST(DeflateDecoderTest, DecodesWhatZlibWritesAtEveryLevelAndStrategy) {
  std::mt19937_64 rng(5);
  int streams = 0;
  for (size_t size : {0, 1, 9, 300, 4000, 40000}) {
    for (int kind = 0; kind < 4; ++kind) {
      const std::string raw = Payload(rng, size, kind);
      for (int strategy : {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED}) {
        for (int level = 0; level <= 9; ++level) {
          // The biggest input at four levels only (this test also runs under ASan, in Debug).
          if (size == 40000 && level != 0 && level != 1 && level != 6 && level != 9) continue;
          const std::string stream = ZlibStream(raw, level, strategy);
          const std::string context = "size " + std::to_string(size) + " kind " +
                                      std::to_string(kind) + " strategy " +
                                      std::to_string(strategy) + " level " + std::to_string(level);
          size_t consumed = 0;
          const std::optional<std::string> whole = DecodeWhole(stream, raw.size(), &consumed);
          ASSERT_TRUE(whole.has_value()) << context;
          ASSERT_EQ(*whole, raw) << context;
          EXPECT_EQ(consumed, stream.size() - 6)
              << context << ": it stops where the Adler-32 starts";
          if (size == 40000 && (level == 1 || level == 9)) {
            // The smallest window the decoder may be given, and a roomier one.
            for (size_t window : {32768 + DeflateDecoder::kRoomPerSymbol, size_t{36000}}) {
              const std::optional<std::string> slid = DecodeSliding(stream, window);
              ASSERT_TRUE(slid.has_value()) << context << " window " << window;
              ASSERT_EQ(*slid, raw) << context << " window " << window;
            }
          }
          ++streams;
        }
      }
    }
  }
  EXPECT_EQ(streams, 5 * 4 * 5 * 10 + 4 * 5 * 4);
}

// Damaged streams: whenever the decoder and the checksum accept one, zlib accepts it with the
// same bytes. (The codec then uses zlib for the rest, which ZlibAgreementTest checks.)
TEST(DeflateDecoderTest, AcceptsNothingZlibRefuses) {
  std::mt19937_64 rng(11);
  int accepted = 0, gave_up = 0;
  for (int s = 0; s < 60; ++s) {
    const std::string raw = Payload(rng, 1 + rng() % 6000, s % 4);
    const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
    const std::string stream = ZlibStream(raw, static_cast<int>(rng() % 10), strategies[s % 5]);
    for (int trial = 0; trial < 150; ++trial) {
      std::string input = stream;
      switch (trial == 0 ? -1 : trial % 3) {
        case -1:  // intact
          break;
        case 0:  // flipped bits
          for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k)
            input[2 + rng() % (input.size() - 2)] ^= static_cast<char>(1 << (rng() % 8));
          break;
        case 1:  // cut short
          input.resize(2 + rng() % (input.size() - 2));
          break;
        default:  // a run of bytes replaced
          for (size_t at = 2 + rng() % (input.size() - 2), k = 0; k < 4 && at + k < input.size();
               ++k)
            input[at + k] = static_cast<char>(rng());
      }
      for (size_t size : {raw.size(), raw.size() + 1}) {
        const std::optional<std::string> fast = DecodeWhole(input, size);
        if (!fast) {
          ++gave_up;
          continue;
        }
        const std::optional<std::string> zlib = testing::ZlibVerdict(input, size);
        ASSERT_TRUE(zlib.has_value()) << "stream " << s << " trial " << trial << " size " << size;
        ASSERT_EQ(*fast, *zlib) << "stream " << s << " trial " << trial;
        ++accepted;
      }
    }
  }
  // The 60 intact streams, and damage that changes nothing decoded (a flip in unused bits).
  EXPECT_GT(accepted, 60);
  EXPECT_GT(gave_up, 10000);
}

// Bits of a deflate stream, first bit lowest, as RFC 1951 3.1.1 packs them.
class BitWriter {
 public:
  void Bits(uint32_t value, unsigned count) {  // a number, lowest bit first
    for (unsigned i = 0; i < count; ++i) Bit((value >> i) & 1);
  }
  void Code(uint32_t code, unsigned length) {  // a Huffman code, highest bit first
    for (unsigned i = length; i-- > 0;) Bit((code >> i) & 1);
  }
  std::string Bytes() const { return bytes_; }

 private:
  void Bit(uint32_t b) {
    if (used_ % 8 == 0) bytes_ += '\0';
    bytes_.back() = static_cast<char>(bytes_.back() | (b << (used_ % 8)));
    ++used_;
  }
  std::string bytes_;
  unsigned used_ = 0;
};

// A zlib stream around one final dynamic block. Its code-length code gives each of the
// lengths 0-15 a 4-bit code (a complete code) unless `code_length_lengths` says otherwise;
// `literal_lengths` (257 or more) and `distance_lengths` follow, one code each, then `body`
// writes the block's symbols.
std::string DynamicBlockStream(const std::vector<uint8_t>& literal_lengths,
                               const std::vector<uint8_t>& distance_lengths,
                               const std::function<void(BitWriter&)>& body,
                               const std::string& decoded,
                               std::vector<uint8_t> code_length_lengths = {}) {
  static constexpr uint8_t kOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                         11, 4,  12, 3, 13, 2, 14, 1, 15};
  if (code_length_lengths.empty()) {
    code_length_lengths.assign(19, 0);
    for (int s = 0; s < 16; ++s) code_length_lengths[s] = 4;
  }
  BitWriter w;
  w.Bits(1, 1);  // final
  w.Bits(2, 2);  // dynamic
  w.Bits(static_cast<uint32_t>(literal_lengths.size() - 257), 5);
  w.Bits(static_cast<uint32_t>(distance_lengths.size() - 1), 5);
  w.Bits(19 - 4, 4);
  for (uint8_t symbol : kOrder) w.Bits(code_length_lengths[symbol], 3);
  // With sixteen 4-bit codes, length L's code is L itself.
  for (uint8_t l : literal_lengths) w.Code(l, 4);
  for (uint8_t l : distance_lengths) w.Code(l, 4);
  body(w);
  std::string stream = "\x78\x01" + w.Bytes();
  const uint32_t adler = Adler32(1, decoded);
  for (int shift = 24; shift >= 0; shift -= 8) stream += static_cast<char>(adler >> shift);
  return stream;
}

// Literal 'A' (code 0), end of block (10) and length 3 (11); distance codes as given.
std::vector<uint8_t> ThreeLiteralCodes() {
  std::vector<uint8_t> lengths(258, 0);
  lengths['A'] = 1;
  lengths[256] = 2;
  lengths[257] = 2;
  return lengths;
}

TEST(DeflateDecoderTest, ALoneOneBitDistanceCodeIsAcceptedAsZlibAcceptsIt) {
  // zlib's inflate_table allows one incomplete form: a single code of one bit.
  const std::string stream = DynamicBlockStream(
      ThreeLiteralCodes(), {1},
      [](BitWriter& w) {
        w.Code(0, 1);  // 'A'
        w.Code(3, 2);  // length 3
        w.Code(0, 1);  // distance 1
        w.Code(2, 2);  // end of block
      },
      "AAAA");
  ASSERT_TRUE(testing::ZlibVerdict(stream, 4).has_value());
  EXPECT_EQ(DecodeWhole(stream, 4), std::optional<std::string>("AAAA"));
}

TEST(DeflateDecoderTest, GivesUpOnTheMissingHalfOfALoneCode) {
  const std::string stream = DynamicBlockStream(
      ThreeLiteralCodes(), {1},
      [](BitWriter& w) {
        w.Code(0, 1);
        w.Code(3, 2);
        w.Code(1, 1);  // no distance code is "1"
        w.Code(2, 2);
      },
      "AAAA");
  EXPECT_FALSE(testing::ZlibVerdict(stream, 4).has_value());
  EXPECT_FALSE(DecodeWhole(stream, 4).has_value());
}

TEST(DeflateDecoderTest, GivesUpOnCodesZlibRefuses) {
  auto body = [](BitWriter& w) {
    w.Code(0, 1);
    w.Code(2, 2);
  };
  struct Case {
    const char* what;
    std::vector<uint8_t> literals, distances;
  };
  std::vector<uint8_t> lone_code_length(19, 0);
  lone_code_length[4] = 1;  // only length 4 can be written, with the code "0"
  std::vector<uint8_t> over(258, 0);
  over['A'] = 1;
  over[256] = 1;
  over[257] = 1;  // three 1-bit codes
  std::vector<uint8_t> incomplete = ThreeLiteralCodes();
  incomplete[257] = 3;  // 1/2 + 1/4 + 1/8 < 1
  std::vector<uint8_t> no_end = ThreeLiteralCodes();
  no_end[256] = 0;
  no_end['B'] = 2;
  const Case cases[] = {
      {"over-subscribed literal code", over, {1}},
      {"incomplete literal code", incomplete, {1}},
      {"no end-of-block code", no_end, {1}},
      {"incomplete distance code", ThreeLiteralCodes(), {2, 2, 2}},
  };
  for (const Case& c : cases) {
    const std::string stream = DynamicBlockStream(c.literals, c.distances, body, "A");
    EXPECT_FALSE(testing::ZlibVerdict(stream, 1).has_value()) << c.what;
    EXPECT_FALSE(DecodeWhole(stream, 1).has_value()) << c.what;
  }
  // A lone code in the code-length code: zlib allows none there. Every length written is 4
  // (code "0"), so the block would otherwise decode.
  BitWriter w;
  w.Bits(1, 1);
  w.Bits(2, 2);
  w.Bits(0, 5);
  w.Bits(0, 5);
  w.Bits(15, 4);
  static constexpr uint8_t kOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                         11, 4,  12, 3, 13, 2, 14, 1, 15};
  for (uint8_t symbol : kOrder) w.Bits(lone_code_length[symbol], 3);
  for (int i = 0; i < 258; ++i) w.Code(0, 1);
  const std::string stream = "\x78\x01" + w.Bytes() + std::string(8, '\0');
  DeflateDecoder decoder(std::string_view(stream).substr(2));
  std::string out(16, '\0');
  size_t pos = 0;
  EXPECT_EQ(decoder.Run(out.data(), pos, out.size(), false), Step::kGiveUp);
}

TEST(DeflateDecoderTest, GivesUpOnReservedSymbolsAndDistancesBeforeTheStart) {
  // Fixed Huffman blocks (3.2.6): literal 'A' is 8 bits, 0x30 + 0x41; length 3 is 7 bits, 1.
  auto fixed = [](uint32_t distance_code, bool literal_first) {
    BitWriter w;
    w.Bits(1, 1);
    w.Bits(1, 2);
    if (literal_first) w.Code(0x30 + 'A', 8);
    w.Code(1, 7);              // length 3
    w.Code(distance_code, 5);  // distance code (5 bits, no extra bits for 0)
    w.Code(0, 7);              // end of block
    return "\x78\x01" + w.Bytes() + std::string(8, '\0');
  };
  std::string out(64, '\0');
  for (auto [code, literal_first] : {std::pair{30u, true}, {31u, true}, {0u, false}}) {
    const std::string stream = fixed(code, literal_first);
    DeflateDecoder decoder(std::string_view(stream).substr(2));
    size_t pos = 0;
    EXPECT_EQ(decoder.Run(out.data(), pos, out.size(), false), Step::kGiveUp) << code;
  }
  // Literal/length symbol 286 (8-bit code 0xC6 in the fixed code).
  BitWriter w;
  w.Bits(1, 1);
  w.Bits(1, 2);
  w.Code(0xC6, 8);
  const std::string stream = "\x78\x01" + w.Bytes() + std::string(8, '\0');
  DeflateDecoder decoder(std::string_view(stream).substr(2));
  size_t pos = 0;
  EXPECT_EQ(decoder.Run(out.data(), pos, out.size(), false), Step::kGiveUp);
}

TEST(DeflateDecoderTest, GivesUpWhenTheOutputDoesNotFit) {
  std::mt19937_64 rng(3);
  const std::string raw = Payload(rng, 5000, 3);
  const std::string stream = ZlibStream(raw, 6, Z_DEFAULT_STRATEGY);
  EXPECT_FALSE(DecodeWhole(stream, raw.size() - 1).has_value());
  EXPECT_EQ(DecodeWhole(stream, raw.size()), std::optional<std::string>(raw));
  // Stored blocks too.
  const std::string stored = ZlibStream(raw, 0, Z_DEFAULT_STRATEGY);
  EXPECT_FALSE(DecodeWhole(stored, raw.size() - 1).has_value());
}

}  // namespace
}  // namespace kerchunk::codecs::internal
