#include "codecs/deflate_decoder.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace kerchunk::codecs::internal {
namespace {

// RFC 1951, 3.2.5: base values and extra bits of the length symbols 257..285 and of the
// distance symbols 0..29.
constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistanceBase[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                        6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// Symbols the format defines codes for but not meanings (3.2.6): zlib refuses them.
constexpr unsigned kFirstReservedLiteral = 286;
constexpr unsigned kFirstReservedDistance = 30;
constexpr unsigned kEndOfBlock = 256;
// zlib refuses dynamic blocks that declare more symbols than these (inflate.c, "too many
// length or distance symbols").
constexpr unsigned kMaxLiteralCodes = 286;
constexpr unsigned kMaxDistanceCodes = 30;

// Table sizes: literal/length codes are read most often and get the biggest table; a block's
// code-length code is at most 7 bits long.
constexpr unsigned kLiteralRootBits = 10;
constexpr unsigned kDistanceRootBits = 8;
constexpr unsigned kCodeLengthRootBits = 7;

constexpr std::array<uint8_t, 256> kReversedBytes = [] {
  std::array<uint8_t, 256> table{};
  for (unsigned b = 0; b < 256; ++b) {
    for (unsigned i = 0; i < 8; ++i) table[b] |= ((b >> i) & 1) << (7 - i);
  }
  return table;
}();

// The `length` low bits of `code` in reverse order (length <= 16).
uint32_t ReverseBits(uint32_t code, unsigned length) {
  const uint32_t reversed16 =
      uint32_t{kReversedBytes[code & 0xFF]} << 8 | kReversedBytes[code >> 8 & 0xFF];
  return reversed16 >> (16 - length);
}

uint64_t LoadLittleEndian64(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  return word;
}

// The fixed codes of block type 1 (3.2.6), built once: 288 literal/length codes, of which 286
// and 287 are reserved, and 32 five-bit distance codes, of which 30 and 31 are.
const HuffmanCode& FixedLiterals() {
  static const HuffmanCode code = [] {
    uint8_t lengths[288];
    std::fill(lengths, lengths + 144, 8);
    std::fill(lengths + 144, lengths + 256, 9);
    std::fill(lengths + 256, lengths + 280, 7);
    std::fill(lengths + 280, lengths + 288, 8);
    HuffmanCode c;
    c.Build(lengths, 288, kLiteralRootBits);
    return c;
  }();
  return code;
}

const HuffmanCode& FixedDistances() {
  static const HuffmanCode code = [] {
    uint8_t lengths[32];
    std::fill(lengths, lengths + 32, 5);
    HuffmanCode c;
    c.Build(lengths, 32, kDistanceRootBits);
    return c;
  }();
  return code;
}

// Copies `length` bytes from `from` to `out` in steps of kStep bytes, up to kStep - 1 bytes past
// the end. Each step's source lies wholly before its destination when `out - from >= kStep`.
template <size_t kStep>
void CopyInSteps(char* out, const char* from, size_t length) {
  char* const end = out + length;
  do {
    std::memcpy(out, from, kStep);
    out += kStep;
    from += kStep;
  } while (out < end);
}

// Copies a match of `length` bytes from `distance` bytes back. Matches overlap their own output
// when the distance is shorter than the length (a run), which a byte-wise copy reproduces. With
// `room` for kMatchSlack bytes past the match, runs of one byte are a memset and longer
// distances are copied 16 or 8 bytes at a time.
void CopyMatch(char* out, size_t distance, size_t length, size_t room) {
  const char* from = out - distance;
  if (room >= length + DeflateDecoder::kMatchSlack) {
    if (distance >= 16) {
      CopyInSteps<16>(out, from, length);
      return;
    }
    if (distance >= 8) {
      CopyInSteps<8>(out, from, length);
      return;
    }
    if (distance == 1) {
      std::memset(out, *from, length);
      return;
    }
  }
  for (size_t i = 0; i < length; ++i) out[i] = from[i];
}

}  // namespace

bool HuffmanCode::Build(const uint8_t* lengths, unsigned n, unsigned table_bits) {
  root_bits = table_bits;
  const uint32_t root_size = 1u << root_bits;
  count.fill(0);
  for (unsigned s = 0; s < n; ++s) {
    if (lengths[s] > kMaxBits) return false;
    ++count[lengths[s]];
  }
  count[0] = 0;
  unsigned max_length = 0;
  for (unsigned l = 1; l <= kMaxBits; ++l) {
    if (count[l]) max_length = l;
  }
  complete = false;
  if (max_length == 0) {  // no codes: fails only if one is read, as in zlib
    std::fill_n(root.begin(), root_size, kNoCode);
    return true;
  }
  int left = 1;
  for (unsigned l = 1; l <= kMaxBits; ++l) {
    left = (left << 1) - count[l];
    if (left < 0) return false;  // over-subscribed
  }
  complete = left == 0;
  if (!complete && max_length != 1) return false;  // zlib allows only one 1-bit code to be alone
  // A complete code writes every entry below; a lone code leaves half of them without one.
  if (!complete) std::fill_n(root.begin(), root_size, kNoCode);

  std::array<uint16_t, kMaxBits + 2> offset{};
  for (unsigned l = 1; l <= kMaxBits; ++l) offset[l + 1] = offset[l] + count[l];
  std::array<uint32_t, kMaxBits + 1> next_code{};
  for (unsigned l = 1, code = 0; l <= kMaxBits; ++l) {
    code = (code + count[l - 1]) << 1;
    next_code[l] = code;
  }
  for (unsigned s = 0; s < n; ++s) {
    const unsigned l = lengths[s];
    if (l == 0) continue;
    symbols[offset[l]++] = static_cast<uint16_t>(s);
    const uint32_t code = next_code[l]++;
    if (l <= root_bits) {
      // The input gives a code's first bit first: the table is indexed by the reversed code.
      for (uint32_t r = ReverseBits(code, l); r < root_size; r += 1u << l) root[r] = s << 4 | l;
    } else {
      root[ReverseBits(code >> (l - root_bits), root_bits)] = kLonger;
    }
  }
  return true;
}

inline void DeflateBits::Refill() {
  if (pos + 8 <= in.size()) {
    // One unaligned load: the bytes beyond those counted are the next ones of the input, and
    // are loaded again (the same bits) next time.
    bits |= LoadLittleEndian64(in.data() + pos) << count;
    pos += (63 - count) >> 3;
    count |= 56;
    return;
  }
  while (count <= 56 && pos < in.size()) {
    bits |= uint64_t{static_cast<uint8_t>(in[pos++])} << count;
    count += 8;
  }
}

inline bool DeflateBits::Read(unsigned n, uint32_t& value) {
  if (count < n) {
    Refill();
    if (count < n) return false;  // the input ends first
  }
  value = static_cast<uint32_t>(bits & ((uint64_t{1} << n) - 1));
  bits >>= n;
  count -= n;
  return true;
}

namespace {

// A code longer than the table's bits, one bit at a time in code order (as zlib's
// contrib/puff does). Rare, so kept out of the decoding loop.
[[gnu::noinline]] bool DecodeLongCode(const HuffmanCode& code, uint64_t bits, unsigned& symbol,
                                      unsigned& length) {
  unsigned first = 0, index = 0, value = 0;
  for (length = 1; length <= HuffmanCode::kMaxBits; ++length) {
    value |= bits & 1;
    bits >>= 1;
    const unsigned count = code.count[length];
    if (value < first + count) {
      symbol = code.symbols[index + value - first];
      return true;
    }
    index += count;
    first = (first + count) << 1;
    value <<= 1;
  }
  return false;
}

}  // namespace

inline bool DeflateBits::Decode(const HuffmanCode& code, uint32_t root_mask, unsigned& symbol) {
  if (count < HuffmanCode::kMaxBits) Refill();
  unsigned length;
  const uint32_t entry = code.root[bits & root_mask];
  if (entry != HuffmanCode::kLonger && entry != HuffmanCode::kNoCode) [[likely]] {
    length = entry & 15;
    symbol = entry >> 4;
  } else if (entry == HuffmanCode::kNoCode || !DecodeLongCode(code, bits, symbol, length)) {
    return false;
  }
  if (length > count) return false;  // the code runs past the end of the input
  bits >>= length;
  count -= length;
  return true;
}

size_t DeflateBits::ConsumedBytes() const {
  const uint64_t used = uint64_t{pos} * 8 - count;
  return static_cast<size_t>((used + 7) / 8);
}

bool DeflateDecoder::StartBlock() {
  uint32_t header;
  if (!in_.Read(3, header)) return false;
  final_block_ = header & 1;
  switch (header >> 1) {
    case 0: {  // stored (3.2.4): from the next byte boundary, LEN and its complement
      const unsigned to_boundary = in_.count & 7;
      in_.bits >>= to_boundary;
      in_.count -= to_boundary;
      uint32_t length, complement;
      if (!in_.Read(16, length) || !in_.Read(16, complement)) return false;
      if (length != (~complement & 0xFFFFu)) return false;
      stored_left_ = length;
      state_ = State::kStored;
      return true;
    }
    case 1:
      literals_ = &FixedLiterals();
      distances_ = &FixedDistances();
      state_ = State::kHuffman;
      return true;
    case 2:
      if (!ReadDynamicCodes()) return false;
      literals_ = &dynamic_literals_;
      distances_ = &dynamic_distances_;
      state_ = State::kHuffman;
      return true;
    default:
      return false;  // block type 3 is reserved
  }
}

// 3.2.7: the code lengths of both codes, themselves Huffman-coded with run-length symbols.
bool DeflateDecoder::ReadDynamicCodes() {
  static constexpr uint8_t kCodeLengthOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                   11, 4,  12, 3, 13, 2, 14, 1, 15};
  uint32_t hlit, hdist, hclen;
  if (!in_.Read(5, hlit) || !in_.Read(5, hdist) || !in_.Read(4, hclen)) return false;
  const unsigned literal_codes = hlit + 257, distance_codes = hdist + 1;
  if (literal_codes > kMaxLiteralCodes || distance_codes > kMaxDistanceCodes) return false;
  uint8_t code_length_lengths[19] = {};
  for (unsigned i = 0; i < hclen + 4; ++i) {
    uint32_t length;
    if (!in_.Read(3, length)) return false;
    code_length_lengths[kCodeLengthOrder[i]] = static_cast<uint8_t>(length);
  }
  HuffmanCode code_lengths;
  // zlib accepts no incomplete code here, not even a lone one.
  if (!code_lengths.Build(code_length_lengths, 19, kCodeLengthRootBits) || !code_lengths.complete) {
    return false;
  }
  uint8_t lengths[kMaxLiteralCodes + kMaxDistanceCodes] = {};
  const unsigned total = literal_codes + distance_codes;
  for (unsigned i = 0; i < total;) {
    unsigned symbol;
    if (!in_.Decode(code_lengths, code_lengths.RootMask(), symbol)) return false;
    if (symbol < 16) {
      lengths[i++] = static_cast<uint8_t>(symbol);
      continue;
    }
    uint32_t extra;
    unsigned repeat;
    uint8_t value = 0;
    if (symbol == 16) {  // the previous length, 3-6 times
      if (i == 0 || !in_.Read(2, extra)) return false;
      value = lengths[i - 1];
      repeat = 3 + extra;
    } else if (symbol == 17) {  // zero, 3-10 times
      if (!in_.Read(3, extra)) return false;
      repeat = 3 + extra;
    } else {  // zero, 11-138 times
      if (!in_.Read(7, extra)) return false;
      repeat = 11 + extra;
    }
    if (repeat > total - i) return false;
    std::memset(lengths + i, value, repeat);
    i += repeat;
  }
  if (lengths[kEndOfBlock] == 0) return false;  // zlib: "missing end-of-block"
  return dynamic_literals_.Build(lengths, literal_codes, kLiteralRootBits) &&
         dynamic_distances_.Build(lengths + literal_codes, distance_codes, kDistanceRootBits);
}

DeflateDecoder::Step DeflateDecoder::CopyStored(char* out, size_t& pos, size_t limit) {
  // The block's first bytes may already be in bits_ (whole bytes: it starts on a boundary).
  while (stored_left_ > 0 && in_.count >= 8) {
    if (pos == limit) return Step::kNeedRoom;
    out[pos++] = static_cast<char>(in_.bits & 0xFF);
    in_.bits >>= 8;
    in_.count -= 8;
    --stored_left_;
  }
  if (stored_left_ > 0) {
    in_.bits = 0;  // empty now; what it held past `count` is read again from the input
    const size_t n = std::min<size_t>({stored_left_, limit - pos, in_.in.size() - in_.pos});
    std::memcpy(out + pos, in_.in.data() + in_.pos, n);
    pos += n;
    in_.pos += n;
    stored_left_ -= static_cast<uint32_t>(n);
    if (stored_left_ > 0) return in_.pos == in_.in.size() ? Step::kGiveUp : Step::kNeedRoom;
  }
  state_ = final_block_ ? State::kDone : State::kBlockHeader;
  return Step::kDone;
}

DeflateDecoder::Step DeflateDecoder::DecodeHuffman(char* out, size_t& pos, size_t limit,
                                                   bool can_slide) {
  DeflateBits in = in_;  // in registers for the loop; stored back on every way out
  const HuffmanCode& literals = *literals_;
  const HuffmanCode& distances = *distances_;
  // Locals: read once, where a byte written to `out` could otherwise change them for all the
  // compiler knows.
  const uint32_t literal_mask = literals.RootMask(), distance_mask = distances.RootMask();
  size_t at = pos;
  auto leave = [&](Step step) {
    in_ = in;
    pos = at;
    return step;
  };
  while (true) {
    if (can_slide && limit - at < kRoomPerSymbol) return leave(Step::kNeedRoom);
    unsigned symbol;
    if (!in.Decode(literals, literal_mask, symbol)) return leave(Step::kGiveUp);
    if (symbol < 256) {
      if (at == limit) return leave(Step::kGiveUp);
      out[at++] = static_cast<char>(symbol);
      continue;
    }
    if (symbol == kEndOfBlock) break;
    if (symbol >= kFirstReservedLiteral) return leave(Step::kGiveUp);
    const unsigned l = symbol - 257;
    uint32_t extra;
    if (!in.Read(kLengthExtra[l], extra)) return leave(Step::kGiveUp);
    const size_t length = kLengthBase[l] + extra;
    unsigned d;
    if (!in.Decode(distances, distance_mask, d) || d >= kFirstReservedDistance) {
      return leave(Step::kGiveUp);
    }
    if (!in.Read(kDistanceExtra[d], extra)) return leave(Step::kGiveUp);
    const size_t distance = kDistanceBase[d] + extra;
    if (distance > at || length > limit - at) return leave(Step::kGiveUp);
    CopyMatch(out + at, distance, length, limit - at);
    at += length;
  }
  state_ = final_block_ ? State::kDone : State::kBlockHeader;
  return leave(Step::kDone);
}

DeflateDecoder::Step DeflateDecoder::Run(char* out, size_t& pos, size_t limit, bool can_slide) {
  while (true) {
    Step step = Step::kDone;
    switch (state_) {
      case State::kDone:
        return Step::kDone;
      case State::kBlockHeader:
        if (!StartBlock()) return Step::kGiveUp;
        break;
      case State::kStored:
        step = CopyStored(out, pos, limit);
        break;
      case State::kHuffman:
        step = DecodeHuffman(out, pos, limit, can_slide);
        break;
    }
    if (step == Step::kNeedRoom && !can_slide) return Step::kGiveUp;
    if (step != Step::kDone) return step;
  }
}

size_t DeflateDecoder::ConsumedBytes() const { return in_.ConsumedBytes(); }

}  // namespace kerchunk::codecs::internal
