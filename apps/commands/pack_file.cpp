// `kerchunk pack`'s run: read, pack, carry scan's source record along, write atomically.
#include "kerchunk/commands/pack.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::pack {

Result<PackSummary> PackFile(const std::string& input, const std::string& output,
                             const PackOptions& options) {
  ReferenceSet refs;
  uint64_t input_bytes = 0;
  if (input == "-") {  // a pipe: read it whole (the file reader needs to know the size)
    KERCHUNK_ASSIGN_OR_RETURN(std::string text, ReadFileToString("/dev/stdin"));
    input_bytes = text.size();
    KERCHUNK_ASSIGN_OR_RETURN(refs, ParseKerchunkJson(text).Annotate("standard input"));
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(refs, ReadKerchunkFile(input));
    KERCHUNK_ASSIGN_OR_RETURN(input_bytes, FileSize(input));
  }
  PackOptions pack_options = options;
  pack_options.binary = !options.readable;  // the compact file holds the blob section
  KERCHUNK_ASSIGN_OR_RETURN(PackedText packed, Pack(refs, pack_options));
  if (input != "-") {
    // scan's record of the source files (kerchunk/refs/source_record.h) travels along.
    KERCHUNK_ASSIGN_OR_RETURN(auto sources, ReadSourceRecord(input));
    if (sources) AppendSourceRecord(*sources, packed.text);
  }
  if (!options.readable) {
    // The JSON parts' shares, for the summary, scaled to the container's size below.
    packed.summary.text_bytes = packed.text.size() + packed.blobs.size();
    packed.text = CompactPackedFile(packed);
  }
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(output, packed.text));
  packed.summary.input_bytes = input_bytes;
  packed.summary.output_bytes = packed.text.size();
  packed.summary.output = output;
  return std::move(packed.summary);
}

}  // namespace kerchunk::pack
