#!/usr/bin/env python3
"""Writes a .proto subset: the messages and enums reachable from some root messages, with
only what the wire format and trace_processor's arg names depend on (field labels, types,
names, numbers, declared defaults; enum value names and numbers). Comments, options and
services are left out; nested types stay nested; every type moves into one package.

The trace engine compiles the subset with protoc into a descriptor set it embeds, and turns
messages into args by reflection (libs/trace/importers/proto/descriptor_args.h).

Usage: proto_subset.py --root-dir DIR --package PKG --out FILE [--extensions]
                       ROOT_FILE:Root.Message ...
  ROOT_FILE is relative to DIR (imports are resolved against DIR too).
  --extensions: also keep every `extend Target { ... }` block of the loaded files whose target
  is kept (with the target's `extensions` ranges), in the message that declares it. Reflection
  names an extension field by its own name, as trace_processor does ("page_load.url").
"""
import argparse
import os
import re
import sys

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[A-Za-z_][\w.]*|-?\d[\w.+-]*|\S')
SCALARS = {'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
           'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'}


def tokenize(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return TOKEN.findall(text)


class Parser:
    def __init__(self, tokens):
        self.t = tokens
        self.i = 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, tok):
        got = self.next()
        if got != tok:
            raise SyntaxError(f'expected {tok!r}, got {got!r} at token {self.i}')

    def skip_statement(self):
        depth = 0
        while True:
            tok = self.next()
            if tok == '{':
                depth += 1
            elif tok == '}':
                depth -= 1
                if depth == 0:
                    return
            elif tok == ';' and depth == 0:
                return

    def options(self):
        """[a = b, (c).d = "e"] after a field: returns the declared default, if any."""
        default = None
        if self.peek() != '[':
            return default
        self.next()
        depth = 1
        prev = None
        while depth:
            tok = self.next()
            if tok == '[':
                depth += 1
            elif tok == ']':
                depth -= 1
            elif prev == 'default' and tok == '=':
                default = self.next()
            prev = tok
        return default

    def file(self):
        out = {'package': '', 'imports': [], 'messages': [], 'enums': [], 'extends': []}
        while self.peek() is not None:
            tok = self.peek()
            if tok == 'package':
                self.next()
                out['package'] = self.next()
                self.expect(';')
            elif tok == 'import':
                self.next()
                if self.peek() in ('public', 'weak'):
                    self.next()
                out['imports'].append(self.next().strip('"'))
                self.expect(';')
            elif tok == 'message':
                out['messages'].append(self.message())
            elif tok == 'enum':
                out['enums'].append(self.enum())
            elif tok == 'extend':
                out['extends'].append(self.extend())
            else:
                self.skip_statement()  # syntax, option, service
        return out

    def extend(self):
        """extend Target { fields }: the target as written and its fields."""
        self.expect('extend')
        target = self.next()
        self.expect('{')
        block = {'name': target, 'fields': [], 'messages': [], 'enums': [], 'extends': [],
                 'ranges': []}
        self.body(block)
        self.expect('}')
        return {'target': target, 'fields': block['fields']}

    def ranges(self):
        """extensions 1000 to 9899, 10000 to max; → the text between the keyword and ';'."""
        self.expect('extensions')
        parts = []
        while self.peek() != ';':
            tok = self.next()
            parts.append(tok + (' ' if tok != ',' else ''))
        self.expect(';')
        return ''.join(parts).replace(' ,', ',').strip()

    def enum(self):
        self.expect('enum')
        name = self.next()
        self.expect('{')
        values = []
        while self.peek() != '}':
            tok = self.next()
            if tok in ('option', 'reserved'):
                self.i -= 1
                self.skip_statement()
                continue
            if tok == ';':
                continue
            self.expect('=')
            number = self.next()
            self.options()
            self.expect(';')
            values.append((tok, int(number, 0)))
        self.expect('}')
        return {'name': name, 'values': values}

    def message(self):
        self.expect('message')
        name = self.next()
        self.expect('{')
        msg = {'name': name, 'fields': [], 'messages': [], 'enums': [], 'extends': [],
               'ranges': []}
        self.body(msg)
        self.expect('}')
        return msg

    def body(self, msg, in_oneof=False):
        while self.peek() != '}':
            tok = self.peek()
            if tok == 'message':
                msg['messages'].append(self.message())
            elif tok == 'enum':
                msg['enums'].append(self.enum())
            elif tok == 'oneof':
                self.next()
                self.next()
                self.expect('{')
                self.body(msg, in_oneof=True)
                self.expect('}')
            elif tok == 'extend':
                msg['extends'].append(self.extend())
            elif tok == 'extensions':
                msg['ranges'].append(self.ranges())
            elif tok in ('option', 'reserved'):
                self.skip_statement()
            elif tok == ';':
                self.next()
            else:
                label = 'optional'
                if tok in ('optional', 'required', 'repeated'):
                    label = self.next()
                type_ = self.next()
                if type_ == 'map':
                    # map<K, V> is on the wire a repeated message of key = 1, value = 2.
                    self.expect('<')
                    key_type = self.next()
                    self.expect(',')
                    value_type = self.next()
                    self.expect('>')
                    fname = self.next()
                    entry = ''.join(p.capitalize() for p in fname.split('_')) + 'Entry'
                    msg['messages'].append({
                        'name': entry, 'messages': [], 'enums': [], 'extends': [], 'ranges': [],
                        'fields': [{'label': 'optional', 'type': key_type, 'name': 'key',
                                    'number': 1, 'default': None},
                                   {'label': 'optional', 'type': value_type, 'name': 'value',
                                    'number': 2, 'default': None}]})
                    label, type_ = 'repeated', entry
                else:
                    fname = self.next()
                self.expect('=')
                number = int(self.next(), 0)
                default = self.options()
                self.expect(';')
                msg['fields'].append({'label': 'optional' if label == 'required' else label,
                                      'type': type_, 'name': fname, 'number': number,
                                      'default': default})


def load(root_dir, rel, files):
    if rel in files:
        return
    with open(os.path.join(root_dir, rel)) as f:
        files[rel] = Parser(tokenize(f.read())).file()
    for imp in files[rel]['imports']:
        if os.path.exists(os.path.join(root_dir, imp)):
            load(root_dir, imp, files)


def index(files):
    """Every type by full name ('.pkg.Outer.Inner') → (kind, definition, package)."""
    types = {}

    def walk(prefix, msg, pkg):
        full = prefix + '.' + msg['name']
        types[full] = ('message', msg, pkg)
        for m in msg['messages']:
            walk(full, m, pkg)
        for e in msg['enums']:
            types[full + '.' + e['name']] = ('enum', e, pkg)

    for f in files.values():
        base = '.' + f['package'] if f['package'] else ''
        for m in f['messages']:
            walk(base, m, f['package'])
        for e in f['enums']:
            types[base + '.' + e['name']] = ('enum', e, f['package'])
    return types


def extend_blocks(files):
    """Every extend block of the loaded files with the scope it is declared in ('.pkg' or
    '.pkg.Message'): its target and field types resolve there."""
    out = []

    def walk(prefix, msg):
        full = prefix + '.' + msg['name']
        out.extend((full, ext) for ext in msg['extends'])
        for m in msg['messages']:
            walk(full, m)

    for f in files.values():
        base = '.' + f['package'] if f['package'] else ''
        out.extend((base, ext) for ext in f['extends'])
        for m in f['messages']:
            walk(base, m)
    return out


def resolve(types, scope, name):
    """protoc's lookup: innermost scope outwards."""
    if name.startswith('.'):
        return name if name in types else None
    parts = scope.split('.')
    while True:
        candidate = '.'.join(parts + [name])
        if candidate in types:
            return candidate
        if not parts or parts == ['']:
            return None
        parts = parts[:-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root-dir', required=True)
    ap.add_argument('--package', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--extensions', action='store_true')
    ap.add_argument('roots', nargs='+')
    args = ap.parse_args()

    files = {}
    roots = []
    for r in args.roots:
        rel, msg = r.split(':')
        load(args.root_dir, rel, files)
        roots.append((rel, msg))
    types = index(files)

    needed = set()
    stack = []
    for rel, msg in roots:
        pkg = files[rel]['package']
        full = '.' + pkg + '.' + msg if pkg else '.' + msg
        if full not in types:
            sys.exit(f'no message {full}')
        stack.append(full)
    def need_field_types(scope, fields):
        for fld in fields:
            if fld['type'] in SCALARS:
                continue
            target = resolve(types, scope, fld['type'])
            if target is None:
                sys.exit(f'{scope}.{fld["name"]}: unknown type {fld["type"]}')
            fld['resolved'] = target
            stack.append(target)

    # extend blocks kept, by the scope that declares them ('.pkg' or a message).
    extensions = {}
    pending = extend_blocks(files) if args.extensions else []
    while stack or pending:
        while stack:
            full = stack.pop()
            if full in needed:
                continue
            needed.add(full)
            kind, d, _ = types[full]
            # Enclosing messages must exist for nested types to keep their names.
            parent = full.rsplit('.', 1)[0]
            if parent in types and types[parent][0] == 'message':
                stack.append(parent)
            if kind == 'message':
                need_field_types(full, d['fields'])
        # An extension of a kept message is kept with its types and its declaring scope.
        still_pending = []
        for scope, ext in pending:
            target = resolve(types, scope, ext['target'])
            if target is None or types[target][0] != 'message':
                sys.exit(f'extend {ext["target"]} in {scope or "<file>"}: unknown message')
            if target not in needed:
                still_pending.append((scope, ext))
                continue
            ext['resolved'] = target
            extensions.setdefault(scope, []).append(ext)
            if scope in types:
                stack.append(scope)
            need_field_types(scope, ext['fields'])
        pending = still_pending if stack else []

    # Flattened into one package: a type's new name is its path below its old package.
    def local(full):
        pkg = types[full][2]
        prefix = '.' + pkg + '.' if pkg else '.'
        return full[len(prefix):]

    seen = {}
    for full in needed:
        if local(full) in seen:
            sys.exit(f'{full} and {seen[local(full)]} would share a name')
        seen[local(full)] = full

    lines = ['// Generated by tools/schema/proto_subset.py: a wire-format subset (names, numbers,',
             '// types) of the messages below, for turning them into args. Do not edit by hand.',
             '//   roots: ' + ', '.join(f'{m}' for _, m in roots),
             'syntax = "proto2";', f'package {args.package};', '']

    def emit_enum(e, indent):
        pad = '  ' * indent
        lines.append(f'{pad}enum {e["name"]} {{')
        if len({n for _, n in e['values']}) != len(e['values']):
            lines.append(f'{pad}  option allow_alias = true;')
        for name, number in e['values']:
            lines.append(f'{pad}  {name} = {number};')
        lines.append(f'{pad}}}')

    def field_line(fld, pad):
        type_ = fld['type'] if fld['type'] in SCALARS else '.' + args.package + '.' + local(
            fld['resolved'])
        default = f' [default = {fld["default"]}]' if fld['default'] is not None else ''
        return f'{pad}  {fld["label"]} {type_} {fld["name"]} = {fld["number"]}{default};'

    def emit_extends(scope, indent):
        pad = '  ' * indent
        for ext in extensions.get(scope, []):
            lines.append(f'{pad}extend .{args.package}.{local(ext["resolved"])} {{')
            for fld in sorted(ext['fields'], key=lambda f: f['number']):
                lines.append(field_line(fld, pad))
            lines.append(f'{pad}}}')

    def emit_message(full, indent):
        _, m, _ = types[full]
        pad = '  ' * indent
        lines.append(f'{pad}message {m["name"]} {{')
        for sub in m['messages']:
            if full + '.' + sub['name'] in needed:
                emit_message(full + '.' + sub['name'], indent + 1)
        for e in m['enums']:
            if full + '.' + e['name'] in needed:
                emit_enum(e, indent + 1)
        for fld in sorted(m['fields'], key=lambda f: f['number']):
            lines.append(field_line(fld, pad))
        if args.extensions:
            for r in m['ranges']:
                lines.append(f'{pad}  extensions {r};')
            emit_extends(full, indent + 1)
        lines.append(f'{pad}}}')

    top = sorted(f for f in needed if '.' not in local(f))
    for full in top:
        if types[full][0] == 'message':
            emit_message(full, 0)
        else:
            emit_enum(types[full][1], 0)
        lines.append('')
    for f in files.values():
        scope = '.' + f['package'] if f['package'] else ''
        if scope in extensions:
            emit_extends(scope, 0)
            extensions.pop(scope)
            lines.append('')
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines))


if __name__ == '__main__':
    main()
