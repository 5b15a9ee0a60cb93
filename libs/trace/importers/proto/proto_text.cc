#include "libs/trace/importers/proto/proto_text.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {
namespace {

using Kind = ProtoTextField::Kind;

class Printer {
 public:
  explicit Printer(std::string* out) : out_(out) {}

  void Message(const ProtoTextMessage* schema, std::string_view bytes) {
    proto::Decoder d(bytes);
    proto::Field f;
    while (d.Next(&f)) {
      const ProtoTextField* fd = schema ? schema->Find(f.id) : nullptr;
      switch (f.type) {
        case proto::kVarint: Varint(fd, f); break;
        case proto::kLengthDelimited: LengthDelimited(fd, f); break;
        case proto::kFixed32: Fixed32(fd, f); break;
        case proto::kFixed64: Fixed64(fd, f); break;
        default: break;
      }
    }
    // A malformed tail is dropped; the fields before it are kept.
  }

 private:
  // Every field starts on a new line at the current depth, except the very first one.
  void StartField() {
    if (!out_->empty()) out_->append("\n");
    out_->append(indent_);
  }
  void Entry(std::string_view name, std::string_view value) {
    StartField();
    out_->append(name);
    out_->append(": ");
    out_->append(value);
  }
  void Unknown(uint32_t id, std::string_view value) { Entry(std::to_string(id), value); }

  void Enum(const ProtoTextField& fd, uint32_t id, int32_t value) {
    if (fd.enum_type) {
      for (size_t i = 0; i < fd.enum_type->count; ++i) {
        if (fd.enum_type->values[i].value == value) {
          Entry(fd.name, fd.enum_type->values[i].name);
          return;
        }
      }
    }
    Unknown(id, std::to_string(value));  // an unknown value reads like an unknown field
  }

  // A scalar of `kind` carried in a varint.
  void VarintValue(const ProtoTextField& fd, uint32_t id, uint64_t v) {
    switch (fd.kind) {
      case Kind::kInt32: Entry(fd.name, std::to_string(static_cast<int32_t>(v))); return;
      case Kind::kInt64: Entry(fd.name, std::to_string(static_cast<int64_t>(v))); return;
      case Kind::kUint32: Entry(fd.name, std::to_string(static_cast<uint32_t>(v))); return;
      case Kind::kUint64: Entry(fd.name, std::to_string(v)); return;
      case Kind::kSint32:
        Entry(fd.name, std::to_string(static_cast<int32_t>(proto::ZigZagDecode(v))));
        return;
      case Kind::kSint64: Entry(fd.name, std::to_string(proto::ZigZagDecode(v))); return;
      case Kind::kBool: Entry(fd.name, v ? "true" : "false"); return;
      case Kind::kEnum: Enum(fd, id, static_cast<int32_t>(v)); return;
      default: Unknown(id, std::to_string(static_cast<int64_t>(v))); return;
    }
  }

  void Varint(const ProtoTextField* fd, const proto::Field& f) {
    if (!fd) {
      Unknown(f.id, std::to_string(f.as_int64()));
      return;
    }
    VarintValue(*fd, f.id, f.int_value);
  }

  void LengthDelimited(const ProtoTextField* fd, const proto::Field& f) {
    const Kind kind = fd ? fd->kind : Kind::kBytes;
    if (fd && (kind == Kind::kString || kind == Kind::kBytes)) {
      Entry(fd->name, QuoteTextProtoString(f.as_string()));
      return;
    }
    if (fd && kind == Kind::kMessage) {
      StartField();
      out_->append(fd->name);
      out_->append(" {");
      indent_.append("  ");
      Message(fd->message, f.as_string());
      indent_.resize(indent_.size() - 2);
      out_->append("\n");
      out_->append(indent_);
      out_->append("}");
      return;
    }
    if (fd && IsPackable(kind)) {
      Packed(*fd, f);
      return;
    }
    Unknown(f.id, QuoteTextProtoString(f.as_string()));
  }

  static bool IsPackable(Kind k) {
    switch (k) {
      case Kind::kInt32: case Kind::kInt64: case Kind::kUint32: case Kind::kUint64:
      case Kind::kEnum: case Kind::kDouble: case Kind::kFloat: case Kind::kFixed32:
      case Kind::kFixed64: case Kind::kSfixed32: case Kind::kSfixed64:
        return true;
      default:
        return false;
    }
  }

  void Packed(const ProtoTextField& fd, const proto::Field& f) {
    const uint8_t* p = f.data;
    const uint8_t* end = f.data + f.size;
    const bool fixed64 = fd.kind == Kind::kDouble || fd.kind == Kind::kFixed64 ||
                         fd.kind == Kind::kSfixed64;
    const bool fixed32 = fd.kind == Kind::kFloat || fd.kind == Kind::kFixed32 ||
                         fd.kind == Kind::kSfixed32;
    while (p < end) {
      if (fixed64 || fixed32) {
        const size_t n = fixed64 ? 8 : 4;
        if (static_cast<size_t>(end - p) < n) break;
        proto::Field v;
        v.id = f.id;
        v.int_value = 0;
        std::memcpy(&v.int_value, p, n);
        p += n;
        FixedValue(fd, v, fixed64);
      } else {
        uint64_t v;
        if (!proto::ReadVarint(&p, end, &v)) break;
        VarintValue(fd, f.id, v);
      }
    }
  }

  void FixedValue(const ProtoTextField& fd, const proto::Field& f, bool is64) {
    switch (fd.kind) {
      case Kind::kDouble: Entry(fd.name, std::to_string(f.as_double())); return;
      case Kind::kFloat: Entry(fd.name, std::to_string(f.as_float())); return;
      case Kind::kFixed64: Entry(fd.name, std::to_string(f.as_uint64())); return;
      case Kind::kSfixed64: Entry(fd.name, std::to_string(f.as_int64())); return;
      case Kind::kFixed32: Entry(fd.name, std::to_string(f.as_uint32())); return;
      case Kind::kSfixed32: Entry(fd.name, std::to_string(f.as_int32())); return;
      default: {
        char hex[24];
        if (is64) {
          std::snprintf(hex, sizeof(hex), "0x%016" PRIx64, f.as_uint64());
        } else {
          std::snprintf(hex, sizeof(hex), "0x%08" PRIx32, f.as_uint32());
        }
        Unknown(f.id, hex);
        return;
      }
    }
  }

  void Fixed32(const ProtoTextField* fd, const proto::Field& f) {
    static const ProtoTextField kNone{0, "", Kind::kBytes};
    FixedValue(fd ? *fd : kNone, f, false);
  }
  void Fixed64(const ProtoTextField* fd, const proto::Field& f) {
    static const ProtoTextField kNone{0, "", Kind::kBytes};
    FixedValue(fd ? *fd : kNone, f, true);
  }

  std::string* out_;
  std::string indent_;
};

}  // namespace

const ProtoTextField* ProtoTextMessage::Find(uint32_t id) const {
  for (size_t i = 0; i < count; ++i) {
    if (fields[i].id == id) return &fields[i];
  }
  return nullptr;
}

std::string ProtoToText(const ProtoTextMessage& schema, std::string_view bytes) {
  std::string out;
  Printer(&out).Message(&schema, bytes);
  return out;
}

std::string QuoteTextProtoString(std::string_view raw) {
  std::string out = "\"";
  for (char c : raw) {
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\\'"; break;
      case '"': out += "\\\""; break;
      default: {
        const auto uc = static_cast<unsigned char>(c);
        if (uc >= 0x20 && uc <= 0x7e) {
          out += c;
        } else {
          // Octal escape, three digits.
          out += '\\';
          out += static_cast<char>('0' + ((uc >> 6) & 3));
          out += static_cast<char>('0' + ((uc >> 3) & 7));
          out += static_cast<char>('0' + (uc & 7));
        }
      }
    }
  }
  out += '"';
  return out;
}

}  // namespace tw
