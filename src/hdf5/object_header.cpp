// Object header v1/v2 message iteration; see the specification link in object_header.h.
#include "kerchunk/hdf5/object_header.h"

#include <algorithm>
#include <vector>

namespace kerchunk::hdf5 {
namespace {

// More continuation blocks than any writer produces; bounds the work on hostile input.
constexpr size_t kMaxHeaderBlocks = 4096;

// One block of messages still to read: the whole block for v2 (signature and checksum included),
// just the messages for v1.
struct Block {
  uint64_t address;
  uint64_t size;
};

struct Walk {
  const File& file;
  const HeaderMessageVisitor& visit;
  int version = 1;
  uint8_t header_flags = 0;
  std::vector<Block> pending;
  std::vector<uint64_t> seen;
  bool stopped = false;
};

Status QueueContinuation(Walk& w, const HeaderMessage& m) {
  ByteReader r = m.Reader("object header continuation message");
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t address, w.file.ReadAddress(r, "continuation address"));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t length, w.file.ReadLength(r, "continuation length"));
  if (address == kUndefinedAddress) {
    return r.Error("continuation message points to the undefined address");
  }
  if (std::find(w.seen.begin(), w.seen.end(), address) != w.seen.end()) {
    return DataLossError(
        "object header continuation message at address {}: block at address {} is visited "
        "twice (a continuation cycle)",
        m.file_offset, address);
  }
  if (w.seen.size() >= kMaxHeaderBlocks) {
    return DataLossError("object header continuation message at address {}: more than {} blocks",
                         m.file_offset, kMaxHeaderBlocks);
  }
  w.seen.push_back(address);
  w.pending.push_back({address, length});
  return OkStatus();
}

// Reads the messages in `r` (the message area of one block) and visits them.
Status ReadMessages(Walk& w, ByteReader& r) {
  const bool v1 = w.version == 1;
  const bool has_order = !v1 && (w.header_flags & 0x04) != 0;
  const uint64_t prefix = v1 ? 8 : (has_order ? 6 : 4);
  while (!w.stopped && r.remaining() >= prefix) {
    HeaderMessage m;
    if (v1) {
      KERCHUNK_ASSIGN_OR_RETURN(m.type, r.U16("message type"));
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(m.type, r.U8("message type"));
    }
    KERCHUNK_ASSIGN_OR_RETURN(uint16_t size, r.U16("message size"));
    KERCHUNK_ASSIGN_OR_RETURN(m.flags, r.U8("message flags"));
    KERCHUNK_RETURN_IF_ERROR(r.Skip(v1 ? 3 : (has_order ? 2 : 0)));
    m.file_offset = r.address();
    KERCHUNK_ASSIGN_OR_RETURN(m.data, r.Bytes(size, "message data"));
    if (m.type == kContinuationMessage) KERCHUNK_RETURN_IF_ERROR(QueueContinuation(w, m));
    KERCHUNK_ASSIGN_OR_RETURN(bool more, w.visit(m));
    w.stopped = !more;
  }
  // Fewer bytes than a message prefix left: a v2 "gap" (or v1 padding), not an error.
  return OkStatus();
}

// Parses the prefix of the header at `address` and returns the reader over chunk 0's messages.
Result<ByteReader> ReadPrefix(Walk& w, uint64_t address) {
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, w.file.ReaderFrom(address, "object header"));
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view magic, r.Chars(std::min<uint64_t>(4, r.size())));
  if (magic == "OHDR") {
    w.version = 2;
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
    if (version != 2) return r.Error(fmt::format("expected version 2, got {}", version));
    KERCHUNK_ASSIGN_OR_RETURN(w.header_flags, r.U8("flags"));
    if (w.header_flags & 0x20) KERCHUNK_RETURN_IF_ERROR(r.Skip(16));  // times
    if (w.header_flags & 0x10) KERCHUNK_RETURN_IF_ERROR(r.Skip(4));   // attribute phase change
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, r.UVar(1u << (w.header_flags & 3), "chunk 0 size"));
    return r.Sub(size, "object header");
  }
  KERCHUNK_RETURN_IF_ERROR(r.Seek(0));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 1) {
    return DataLossError(
        "object header at address {}: expected version 1 or signature \"OHDR\", got version "
        "byte {}",
        r.address() - 1, version);
  }
  // Reserved, message count, reference count; then the chunk size and 4 bytes of alignment.
  KERCHUNK_RETURN_IF_ERROR(r.Skip(1 + 2 + 4));
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t size, r.U32("header size"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(4));
  return r.Sub(size, "object header");
}

// Reads one continuation block queued by QueueContinuation.
Status ReadContinuation(Walk& w, const Block& block) {
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            w.file.ReaderAt(block.address, block.size, "object header block"));
  if (w.version == 1) return ReadMessages(w, r);
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("OCHK"));
  if (r.remaining() < 4) return r.Error("continuation block too small for its checksum");
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader messages, r.Sub(r.remaining() - 4, "object header block"));
  return ReadMessages(w, messages);
}

}  // namespace

Status ForEachHeaderMessage(const File& file, uint64_t address, const HeaderMessageVisitor& visit) {
  Walk w{file, visit};
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader chunk0, ReadPrefix(w, address));
  KERCHUNK_RETURN_IF_ERROR(ReadMessages(w, chunk0));
  // Blocks are read in the order their continuation messages appear, as libhdf5 does.
  for (size_t i = 0; i < w.pending.size() && !w.stopped; ++i) {
    Block block = w.pending[i];
    KERCHUNK_RETURN_IF_ERROR(ReadContinuation(w, block));
  }
  return OkStatus();
}

Result<HeaderMessage> FindHeaderMessage(const File& file, uint64_t address, uint16_t type) {
  HeaderMessage found;
  bool have = false;
  KERCHUNK_RETURN_IF_ERROR(
      ForEachHeaderMessage(file, address, [&](const HeaderMessage& m) -> Result<bool> {
        if (m.type != type) return true;
        found = m;
        have = true;
        return false;
      }));
  if (!have) {
    return NotFoundError("object header at address {}: no message of type 0x{:04x}", address, type);
  }
  return found;
}

}  // namespace kerchunk::hdf5
