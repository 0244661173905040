// Kerchunk version 1 JSON writer: one key per line, each array's chunks right after its
// metadata, numbers and keys formatted without temporary strings.
#include <charconv>
#include <string>
#include <unordered_map>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/base64.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk {
namespace {

void AppendUint(std::string& out, uint64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// Template name of url id `id`: "u0", "u1", ... "uz", "u10" (base 36 keeps names short).
std::string TemplateName(uint32_t id) {
  char buf[16] = {'u'};
  auto [end, ec] = std::to_chars(buf + 1, buf + sizeof buf, id, 36);
  return std::string(buf, end);
}

class Writer {
 public:
  Writer(const ReferenceSet& refs, const WriteOptions& options, std::string& out)
      : refs_(refs), options_(options), out_(out) {
    url_json_.reserve(refs.urls.size());
    for (uint32_t id = 0; id < refs.urls.size(); ++id) {
      std::string quoted;
      if (options.templates) {
        json::AppendString(quoted, "{{" + TemplateName(id) + "}}");
      } else {
        json::AppendString(quoted, refs.urls[id]);
      }
      url_json_.push_back(std::move(quoted));
    }
  }

  void Write() {
    out_ += "{\"version\":1,";
    if (options_.templates && refs_.urls.size() > 0) WriteTemplates();
    out_ += "\"refs\":{";
    // Each array's chunks follow its last metadata entry (".zarray"/".zattrs").
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
    for (size_t a : arrays_after[0]) WriteArray(refs_.arrays[a]);
    for (size_t e = 0; e < refs_.entries.size(); ++e) {
      WriteEntry(refs_.entries[e]);
      for (size_t a : arrays_after[e + 1]) WriteArray(refs_.arrays[a]);
    }
    out_ += "\n}}\n";
  }

 private:
  void WriteTemplates() {
    out_ += "\"templates\":{";
    for (uint32_t id = 0; id < refs_.urls.size(); ++id) {
      if (id) out_ += ',';
      json::AppendString(out_, TemplateName(id));
      out_ += ':';
      json::AppendString(out_, refs_.urls[id]);
    }
    out_ += "},";
  }

  void Separator() {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '\n';
  }

  void WriteRange(uint32_t url, uint64_t offset, uint64_t length) {
    out_ += '[';
    out_ += url_json_[url];
    out_ += ',';
    AppendUint(out_, offset);
    out_ += ',';
    AppendUint(out_, length);
    out_ += ']';
  }

  void WriteInline(std::string_view data, bool base64) {
    if (base64) {
      out_ += "\"base64:";
      Base64EncodeTo(data, out_);
      out_ += '"';
    } else {
      json::AppendString(out_, data);
    }
  }

  void WriteEntry(const Entry& e) {
    Separator();
    json::AppendString(out_, e.key);
    out_ += ':';
    const EntryValue& v = e.value;
    switch (v.kind) {
      case EntryValue::Kind::kText:
        json::AppendString(out_, v.data);
        break;
      case EntryValue::Kind::kBase64:
        WriteInline(v.data, true);
        break;
      case EntryValue::Kind::kRange:
        WriteRange(v.url, v.offset, v.length);
        break;
      case EntryValue::Kind::kWholeFile:
        out_ += '[';
        out_ += url_json_[v.url];
        out_ += ']';
        break;
      case EntryValue::Kind::kJson:
        out_ += v.data;
        break;
    }
  }

  void WriteArray(const ArrayRefs& a) {
    std::string quoted_prefix;
    json::AppendString(quoted_prefix, a.KeyPrefix());
    quoted_prefix.pop_back();  // drop the closing quote: the chunk suffix follows
    const auto& urls = a.urls();
    const auto& offsets = a.offsets();
    const auto& lengths = a.lengths();
    for (size_t i = 0; i < a.size(); ++i) {
      Separator();
      out_ += quoted_prefix;
      a.grid().AppendKey(a.chunk_index(i), out_);
      out_ += "\":";
      uint32_t u = urls[i];
      if (u == ArrayRefs::kInlineText || u == ArrayRefs::kInlineBase64) {
        ChunkRef r = a.Get(i);
        WriteInline(r.data, r.base64);
      } else if (lengths[i] == ArrayRefs::kWholeFileLength) {
        out_ += '[';
        out_ += url_json_[u];
        out_ += ']';
      } else {
        WriteRange(u, offsets[i], lengths[i]);
      }
    }
  }

  const ReferenceSet& refs_;
  const WriteOptions& options_;
  std::string& out_;
  std::vector<std::string> url_json_;
  bool first_ = true;
};

}  // namespace

void SerializeKerchunkJson(const ReferenceSet& refs, const WriteOptions& options,
                           std::string& out) {
  out.reserve(out.size() + 64 * refs.ChunkCount() + 1024);
  Writer(refs, options, out).Write();
}

Status WriteKerchunkFile(const ReferenceSet& refs, const std::string& path,
                         const WriteOptions& options) {
  std::string text;
  SerializeKerchunkJson(refs, options, text);
  return WriteFileAtomically(path, text);
}

}  // namespace kerchunk
