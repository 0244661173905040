// A decoder of raw deflate data (RFC 1951, https://www.rfc-editor.org/rfc/rfc1951) for the
// streams zlib accepts, faster than zlib 1.2.13 on the long runs netCDF writes (a 4 MiB time
// chunk holding 1,200 values and its fill value: zlib copies matches one byte at a time).
//
// It is never the last word. It stops ("gives up") at anything zlib might judge differently:
// a truncated or corrupt stream, an incomplete Huffman code other than zlib's one allowed form,
// symbols the format reserves, a distance before the start of the output, output past the room
// it was given. The caller then decodes the whole stream again with zlib, which gives the
// verdict and its message. So a stream this decoder accepts, zlib accepts with the same bytes
// (tests/codecs/deflate_decoder_test.cpp and the codecs fuzz target hold it to that), and a
// stream it gives up on costs one more decode.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kerchunk::codecs::internal {

/// A canonical Huffman code (RFC 1951, 3.2.2) ready for decoding: a table indexed by the next
/// root_bits bits of the input for codes up to that long, and each length's count and the
/// symbols in code order for the longer ones.
struct HuffmanCode {
  static constexpr unsigned kMaxRootBits = 10;
  static constexpr unsigned kMaxBits = 15;
  static constexpr unsigned kMaxSymbols = 288;
  /// Entries: symbol << 4 | code length; kLonger when the code is longer than root_bits;
  /// kNoCode where no code starts with these bits (a code zlib allows to be incomplete).
  static constexpr uint32_t kLonger = 0;
  static constexpr uint32_t kNoCode = UINT32_MAX;
  unsigned root_bits = kMaxRootBits;
  std::array<uint32_t, 1u << kMaxRootBits> root;
  std::array<uint16_t, kMaxBits + 1> count;
  std::array<uint16_t, kMaxSymbols> symbols;
  /// Whether every string of bits starts a code (Build may accept a code that is not).
  bool complete = false;

  /// Builds the code of `n` symbols with these code lengths (0: no code), with a table of
  /// `root_bits` (at most kMaxRootBits): a small table is quick to fill, a big one decodes more
  /// codes at once. False where zlib's inflate_table fails: an over-subscribed set, or an
  /// incomplete one other than a single code of one bit (or none at all, which only fails when
  /// a code is read).
  bool Build(const uint8_t* lengths, unsigned n, unsigned root_bits);
  uint32_t RootMask() const { return (1u << root_bits) - 1; }
};

/// The input as bits, lowest first (RFC 1951, 3.1.1). A value type: the decoding loop works on
/// a local copy, which the compiler keeps in registers (the output bytes it writes through a
/// char pointer could otherwise alias it, and it would be reloaded after every byte).
struct DeflateBits {
  std::string_view in;
  size_t pos = 0;      ///< bytes of `in` loaded into `bits`
  uint64_t bits = 0;   ///< the next bits of the input, lowest first
  unsigned count = 0;  ///< how many bits of `bits` are loaded

  /// Loads whole bytes while fewer than 57 bits are loaded and input is left.
  void Refill();
  /// The next n (<= 16) bits as a number; false if the input ends first.
  bool Read(unsigned n, uint32_t& value);
  /// The next symbol of `code` (whose RootMask() is `root_mask`); false if no code matches or
  /// the input ends first.
  bool Decode(const HuffmanCode& code, uint32_t root_mask, unsigned& symbol);
  /// Bytes taken so far, counting a partly used byte.
  size_t ConsumedBytes() const;
};

/// Decodes one raw deflate stream from the front of `in`, in steps when the output is given in
/// windows (see Run).
class DeflateDecoder {
 public:
  enum class Step {
    kDone,      ///< the final block ended; ConsumedBytes() says where the stream ended
    kNeedRoom,  ///< only with `can_slide`: fewer than kRoomPerSymbol bytes left in `out`
    kGiveUp,    ///< let zlib decode the stream (see above)
  };
  /// Bytes a match copied in steps may write past its end.
  static constexpr size_t kMatchSlack = 16;
  /// Output room the decoder wants before each symbol when it may ask for more: a match of
  /// 258 bytes and its slack.
  static constexpr size_t kRoomPerSymbol = 258 + kMatchSlack;

  explicit DeflateDecoder(std::string_view in) : in_{in} {}

  /// Decodes into out[pos, limit), moving `pos`. out[0, pos) must hold the output before it:
  /// all of it, or at least its last 32 KiB (the farthest a match reaches back). Without
  /// `can_slide` the output must fit in `limit` (else kGiveUp); with it, kNeedRoom asks the
  /// caller to make room (keeping that history) and call again.
  Step Run(char* out, size_t& pos, size_t limit, bool can_slide);

  /// The bytes of `in` the stream took, up to and including the byte that holds its last bit
  /// (where zlib's raw inflate stops too).
  size_t ConsumedBytes() const;

 private:
  enum class State { kBlockHeader, kStored, kHuffman, kDone };

  bool StartBlock();
  bool ReadDynamicCodes();
  Step CopyStored(char* out, size_t& pos, size_t limit);
  Step DecodeHuffman(char* out, size_t& pos, size_t limit, bool can_slide);

  DeflateBits in_;
  State state_ = State::kBlockHeader;
  bool final_block_ = false;
  uint32_t stored_left_ = 0;
  const HuffmanCode* literals_ = nullptr;
  const HuffmanCode* distances_ = nullptr;
  HuffmanCode dynamic_literals_;
  HuffmanCode dynamic_distances_;
};

}  // namespace kerchunk::codecs::internal
