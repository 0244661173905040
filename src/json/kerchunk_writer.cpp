// Kerchunk version 1 JSON writer: one key per line, each array's chunks right after its
// metadata, numbers and keys formatted without temporary strings.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/base64.h"
#include "kerchunk/util/file_io.h"
#include "kerchunk/util/parallel.h"

namespace kerchunk {
namespace {

void AppendUint(std::string& out, uint64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

size_t Digits(uint64_t v) {
  size_t n = 1;
  while (v >= 10) v /= 10, ++n;
  return n;
}

// Longest chunk key suffix of an array ("12.0.3"): the digits of the largest index per
// dimension plus separators.
size_t MaxKeySuffix(const ChunkGrid& grid) {
  size_t n = grid.rank() == 0 ? 1 : grid.rank() - 1;
  for (uint64_t count : grid.counts()) n += Digits(count == 0 ? 0 : count - 1);
  return n;
}

// Template name of url id `id`: "u0", "u1", ... "uz", "u10" (base 36 keeps names short).
std::string TemplateName(uint32_t id) {
  char buf[16] = {'u'};
  auto [end, ec] = std::to_chars(buf + 1, buf + sizeof buf, id, 36);
  return std::string(buf, end);
}

// Every item is written as ",\n<key>:<value>", and the comma of the document's first item
// dropped. What the writer emits, in order: a run of metadata/plain entries, or a run of rows of
// one array. Pieces are serialized independently (in parallel for large sets) and concatenated.
struct Piece {
  size_t first = 0;         ///< entries: first index; rows: first row
  size_t end = 0;           ///< one past the last
  size_t array = SIZE_MAX;  ///< SIZE_MAX for a run of entries
};

// Rows of one array serialized as one piece: large enough that a piece's fixed costs vanish,
// small enough that two threads finish together.
constexpr size_t kRowsPerPiece = 32768;

class Writer {
 public:
  Writer(const ReferenceSet& refs, const WriteOptions& options) : refs_(refs), options_(options) {
    url_json_.reserve(refs.urls.size());
    for (uint32_t id = 0; id < refs.urls.size(); ++id) {
      std::string quoted;
      if (options.templates) {
        json::AppendString(quoted, "{{" + TemplateName(id) + "}}");
      } else {
        json::AppendString(quoted, refs.urls[id]);
      }
      max_url_json_ = std::max(max_url_json_, quoted.size());
      url_json_.push_back(std::move(quoted));
    }
  }

  // The document to `sink` in order: the opening (up to "refs":{), the items piece by piece,
  // the closing. Pieces are serialized on options.threads while the sink writes earlier ones,
  // and only a few are held at once.
  Status Stream(const std::function<Status(std::string_view)>& sink) const {
    std::string opening;
    WriteOpening(opening);
    KERCHUNK_RETURN_IF_ERROR(sink(opening));
    const std::vector<Piece> pieces = Plan();
    bool written = false;
    KERCHUNK_RETURN_IF_ERROR(ProduceInOrder(
        pieces.size(), ThreadsFor(pieces),
        [&](size_t i) {
          const Piece& p = pieces[i];
          std::string text;
          // Rows only: an array's inline values may sit anywhere in it, and grow the text.
          if (p.array != SIZE_MAX)
            text.reserve((p.end - p.first) * RowBound(refs_.arrays[p.array]));
          WritePiece(p, text);
          return text;
        },
        [&](std::string&& text) {
          if (text.empty()) return OkStatus();
          // The first item of the document has no comma.
          const std::string_view item = std::string_view(text).substr(written ? 0 : 1);
          written = true;
          return sink(item);
        }));
    return sink("\n}}\n");
  }

  // Below two full pieces of rows the text takes well under a millisecond to write, and
  // handing pieces between threads (a wake-up each, ~50 µs on a VM) would cost more than it
  // saves: the CORDEX pair's 7,306 references took longer to write on 2 threads than on one.
  unsigned ThreadsFor(const std::vector<Piece>& pieces) const {
    size_t rows = 0;
    for (const Piece& p : pieces) {
      if (p.array != SIZE_MAX) rows += p.end - p.first;
    }
    return rows < 2 * kRowsPerPiece ? 1 : options_.threads;
  }

  // Upper bounds of what is written, reserved before writing so that a text never grows by
  // reallocation, which briefly holds the old and the new buffer (about 2.5 times the JSON at
  // the peak, ~165 MB for a million references); capacity reserved but never written costs
  // address space, not resident memory. A range is [url,offset,length] and separators.
  size_t RangeBound() const { return max_url_json_ + 2 * 20 + 8; }
  size_t RowBound(const ArrayRefs& a) const {
    return 6 * a.path().size() + MaxKeySuffix(a.grid()) + 8 + RangeBound();
  }
  size_t SizeBound() const {
    size_t total = 1024;
    for (const std::string& url : url_json_) total += url.size() + 24;  // templates
    for (const Entry& e : refs_.entries) {
      total += 6 * (e.key.size() + e.value.data.size()) + RangeBound() + 8;  // \uXXXX at worst
    }
    for (const ArrayRefs& a : refs_.arrays) {
      total += a.size() * RowBound(a) + 6 * a.inline_data().size();
    }
    return total;
  }

 private:
  // The pieces in output order: each array's chunks follow its last metadata entry
  // (".zarray"/".zattrs"); arrays without metadata come first.
  std::vector<Piece> Plan() const {
    // last_metadata[path] = 1 + index of the last ".z*" entry directly under that path.
    std::unordered_map<std::string_view, size_t> last_metadata;
    for (size_t e = 0; e < refs_.entries.size(); ++e) {
      std::string_view k = refs_.entries[e].key;
      size_t slash = k.rfind('/');
      std::string_view name = slash == std::string_view::npos ? k : k.substr(slash + 1);
      if (!name.starts_with(".z")) continue;
      last_metadata[slash == std::string_view::npos ? std::string_view() : k.substr(0, slash)] =
          e + 1;
    }
    std::vector<std::vector<size_t>> arrays_after(refs_.entries.size() + 1);
    for (size_t a = 0; a < refs_.arrays.size(); ++a) {
      auto it = last_metadata.find(refs_.arrays[a].path());
      arrays_after[it == last_metadata.end() ? 0 : it->second].push_back(a);
    }
    std::vector<Piece> pieces;
    auto add_arrays = [&](const std::vector<size_t>& arrays) {
      for (size_t a : arrays) {
        for (size_t r = 0; r < refs_.arrays[a].size(); r += kRowsPerPiece) {
          pieces.push_back({r, std::min(r + kRowsPerPiece, refs_.arrays[a].size()), a});
        }
      }
    };
    add_arrays(arrays_after[0]);
    for (size_t e = 0; e < refs_.entries.size(); ++e) {
      if (!pieces.empty() && pieces.back().array == SIZE_MAX && pieces.back().end == e) {
        pieces.back().end = e + 1;
      } else {
        pieces.push_back({e, e + 1, SIZE_MAX});
      }
      add_arrays(arrays_after[e + 1]);
    }
    return pieces;
  }

  void WriteOpening(std::string& out) const {
    out += "{\"version\":1,";
    if (options_.templates && refs_.urls.size() > 0) WriteTemplates(out);
    out += "\"refs\":{";
  }

  void WritePiece(const Piece& p, std::string& out) const {
    if (p.array == SIZE_MAX) {
      for (size_t e = p.first; e < p.end; ++e) WriteEntry(refs_.entries[e], out);
    } else {
      WriteRows(refs_.arrays[p.array], p.first, p.end, out);
    }
  }

  void WriteTemplates(std::string& out) const {
    out += "\"templates\":{";
    for (uint32_t id = 0; id < refs_.urls.size(); ++id) {
      if (id) out += ',';
      json::AppendString(out, TemplateName(id));
      out += ':';
      json::AppendString(out, refs_.urls[id]);
    }
    out += "},";
  }

  void WriteRange(uint32_t url, uint64_t offset, uint64_t length, std::string& out) const {
    out += '[';
    out += url_json_[url];
    out += ',';
    AppendUint(out, offset);
    out += ',';
    AppendUint(out, length);
    out += ']';
  }

  static void WriteInline(std::string_view data, bool base64, std::string& out) {
    if (base64) {
      out += "\"base64:";
      Base64EncodeTo(data, out);
      out += '"';
    } else {
      json::AppendString(out, data);
    }
  }

  void WriteEntry(const Entry& e, std::string& out) const {
    out += ",\n";
    json::AppendString(out, e.key);
    out += ':';
    const EntryValue& v = e.value;
    switch (v.kind) {
      case EntryValue::Kind::kText:
        json::AppendString(out, v.data);
        break;
      case EntryValue::Kind::kBase64:
        WriteInline(v.data, true, out);
        break;
      case EntryValue::Kind::kRange:
        WriteRange(v.url, v.offset, v.length, out);
        break;
      case EntryValue::Kind::kWholeFile:
        out += '[';
        out += url_json_[v.url];
        out += ']';
        break;
      case EntryValue::Kind::kJson:
        out += v.data;
        break;
    }
  }

  // Each row is written through a pointer into a buffer of RowBound bytes and appended at once,
  // and chunk coordinates follow the rows like an odometer, so a row costs a few copies and two
  // number conversions instead of a dozen string appends and a division per dimension.
  void WriteRows(const ArrayRefs& a, size_t begin, size_t end, std::string& out) const {
    std::string quoted_prefix = ",\n";
    json::AppendString(quoted_prefix, a.KeyPrefix());
    quoted_prefix.pop_back();             // drop the closing quote: the chunk suffix follows
    std::string text(RowBound(a), '\0');  // one row, appended to `out` at once
    const auto& urls = a.urls();
    ChunkOdometer keys(a.grid());
    for (size_t i = begin; i < end; ++i) {
      char* p = Copy(text.data(), quoted_prefix);
      p = keys.Write(a.chunk_index(i), p);
      const uint32_t u = urls[i];
      if (u == ArrayRefs::kInlineText || u == ArrayRefs::kInlineBase64) {
        // An inline value's text may be longer than a row: appended after the key.
        p = Copy(p, "\":");
        out.append(text.data(), static_cast<size_t>(p - text.data()));
        ChunkRef r = a.Get(i);
        WriteInline(r.data, r.base64, out);
        continue;
      }
      p = Copy(p, "\":[");
      p = Copy(p, url_json_[u]);
      const uint64_t length = a.lengths()[i];
      if (length != ArrayRefs::kWholeFileLength) {
        *p++ = ',';
        p = std::to_chars(p, p + 20, a.offsets()[i]).ptr;
        *p++ = ',';
        p = std::to_chars(p, p + 20, length).ptr;
      }
      *p++ = ']';
      out.append(text.data(), static_cast<size_t>(p - text.data()));
    }
  }

  static char* Copy(char* p, std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    return p + s.size();
  }

  // The key suffix of each row's chunk ("12.0.3"). Rows mostly follow each other in chunk order,
  // so the coordinates of the next chunk are the last ones plus one with carries: the dimension
  // that was incremented is converted to digits, the faster ones after it are all 0 now, and the
  // slower ones keep their text. One number conversion per key, not one per dimension.
  class ChunkOdometer {
   public:
    explicit ChunkOdometer(const ChunkGrid& grid)
        : grid_(grid), coords_(grid.rank(), 0), ends_(grid.rank(), 0), text_(21 * grid.rank(), 0) {}

    char* Write(uint64_t linear, char* p) {
      if (grid_.rank() == 0) {
        *p++ = '0';
        return p;
      }
      if (has_last_ && linear == last_ + 1) {
        Render(Increment(), /*rest_zero=*/true);
      } else {
        grid_.Coords(linear, coords_);
        Render(0, /*rest_zero=*/false);
      }
      has_last_ = true;
      last_ = linear;
      const size_t length = ends_.back();
      std::memcpy(p, text_.data(), length);
      return p + length;
    }

   private:
    // Adds one with carries; returns the slowest dimension that changed.
    size_t Increment() {
      const auto& counts = grid_.counts();
      for (size_t d = coords_.size(); d-- > 0;) {
        if (++coords_[d] < counts[d] || d == 0) return d;
        coords_[d] = 0;
      }
      return 0;
    }

    // Writes dimensions `from` onwards after the text of the ones before; with rest_zero the
    // ones after `from` are known to be 0.
    void Render(size_t from, bool rest_zero) {
      char* p = text_.data() + (from == 0 ? 0 : ends_[from - 1]);
      for (size_t d = from; d < coords_.size(); ++d) {
        if (d) *p++ = grid_.separator();
        if (rest_zero && d > from) {
          *p++ = '0';
        } else {
          p = std::to_chars(p, p + 20, coords_[d]).ptr;
        }
        ends_[d] = static_cast<size_t>(p - text_.data());
      }
    }

    const ChunkGrid& grid_;
    std::vector<uint64_t> coords_;
    std::vector<size_t> ends_;  // one past each dimension's digits in text_
    std::vector<char> text_;    // the last key suffix: up to 20 digits and a separator each
    uint64_t last_ = 0;
    bool has_last_ = false;
  };

  const ReferenceSet& refs_;
  const WriteOptions& options_;
  std::vector<std::string> url_json_;
  size_t max_url_json_ = 0;
};

}  // namespace

void SerializeKerchunkJson(const ReferenceSet& refs, const WriteOptions& options,
                           std::string& out) {
  Writer writer(refs, options);
  out.reserve(out.size() + writer.SizeBound());
  // The pieces appended as they come: one way to write the document, streamed or not.
  const Status appended = writer.Stream([&](std::string_view text) {
    out += text;
    return OkStatus();
  });
  (void)appended;  // appending to a string cannot fail
}

Status StreamKerchunkJson(const ReferenceSet& refs, const WriteOptions& options,
                          const std::function<Status(std::string_view)>& sink) {
  return Writer(refs, options).Stream(sink);
}

Status StreamKerchunkJson(const ReferenceSet& refs, const WriteOptions& options,
                          const std::vector<SourceFileRecord>& sources,
                          const std::function<Status(std::string_view)>& sink) {
  bool opening = true;
  return StreamKerchunkJson(refs, options, [&](std::string_view text) {
    if (!opening || sources.empty()) return sink(text);
    opening = false;
    std::string with_record(text);
    PrependSourceRecord(sources, with_record);
    return sink(with_record);
  });
}

Status WriteKerchunkFile(const ReferenceSet& refs, const std::string& path,
                         const WriteOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(auto out, AtomicOutputFile::Create(path));
  KERCHUNK_RETURN_IF_ERROR(
      StreamKerchunkJson(refs, options, [&](std::string_view text) { return out.Write(text); }));
  return out.Commit();
}

}  // namespace kerchunk
