// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The native methods of `jni/native-methods.txt`, each written once: the Rust exports
//! (`exports.rs`, included by lib.rs) and the Java classes that declare them.

use std::fmt::Write as _;

pub const PACKAGE: &str = "org.apache.cloudstack.kubernetes.state";
const JAVA_WIDTH: usize = 120;
const DOC_WIDTH: usize = 100;

struct Native {
    module: String,
    result: String,
    name: String,
    params: Vec<(String, String)>,
    doc: Vec<String>,
    line: usize,
}

enum Item {
    Java(String),
    Native(Native),
}

pub struct Class {
    pub name: String,
    feature: Option<String>,
    pub dir: String,
    items: Vec<Item>,
}

fn fail(line: usize, message: &str) -> ! {
    panic!("jni/native-methods.txt:{line}: {message}");
}

pub fn parse(text: &str) -> Vec<Class> {
    let mut classes: Vec<Class> = Vec::new();
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        if let Some(rest) = raw.strip_prefix("class ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let (feature, dir) = match words.as_slice() {
                [_, dir] => (None, dir),
                [_, f, dir] => match f.strip_prefix("feature=") {
                    Some(f) => (Some(f.to_string()), dir),
                    None => fail(line, "class NAME [feature=F] DIR"),
                },
                _ => fail(line, "class NAME [feature=F] DIR"),
            };
            classes.push(Class {
                name: words[0].to_string(),
                feature,
                dir: dir.to_string(),
                items: Vec::new(),
            });
            open = true;
            continue;
        }
        let Some(class) = classes.last_mut().filter(|_| open) else {
            fail(line, "outside a class");
        };
        if raw == "end" {
            open = false;
        } else if let Some(java) = raw.strip_prefix('|') {
            class.items.push(Item::Java(
                java.strip_prefix(' ').unwrap_or(java).to_string(),
            ));
        } else if let Some(rest) = raw.strip_prefix("native ") {
            class.items.push(Item::Native(native(line, rest)));
        } else if let Some(doc) = raw.strip_prefix("  ") {
            match class.items.last_mut() {
                Some(Item::Native(n)) => n.doc.push(doc.trim().to_string()),
                _ => fail(line, "a doc line belongs after a native line"),
            }
        } else {
            fail(
                line,
                "expected class, |, native, an indented doc line or end",
            );
        }
    }
    if open {
        fail(text.lines().count(), "the last class has no end");
    }
    classes
}

fn native(line: usize, rest: &str) -> Native {
    let (head, args) = rest
        .strip_suffix(')')
        .and_then(|r| r.split_once('('))
        .unwrap_or_else(|| fail(line, "native MODULE TYPE NAME(ARGS)"));
    let words: Vec<&str> = head.split_whitespace().collect();
    let [module, result, name] = words.as_slice() else {
        fail(line, "native MODULE TYPE NAME(ARGS)");
    };
    rust_result(result).unwrap_or_else(|| fail(line, &format!("no JNI result type for {result}")));
    let params = args
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(
            |p| match p.split_whitespace().collect::<Vec<_>>().as_slice() {
                [t, n] if rust_param(t).is_some() => (t.to_string(), n.to_string()),
                _ => fail(line, &format!("parameter {p:?}: a JNI type and a name")),
            },
        )
        .collect();
    Native {
        module: module.to_string(),
        result: result.to_string(),
        name: name.to_string(),
        params,
        doc: Vec::new(),
        line,
    }
}

fn rust_param(java: &str) -> Option<&'static str> {
    Some(match java {
        "int" => "jni::sys::jint",
        "long" => "jni::sys::jlong",
        "boolean" => "jni::sys::jboolean",
        "String" => "jni::objects::JString<'local>",
        "int[]" => "jni::objects::JIntArray<'local>",
        "long[]" => "jni::objects::JLongArray<'local>",
        _ => return None,
    })
}

fn rust_result(java: &str) -> Option<&'static str> {
    Some(match java {
        "void" => "",
        "int" => " -> jni::sys::jint",
        "long" => " -> jni::sys::jlong",
        "boolean" => " -> jni::sys::jboolean",
        "String" => " -> jni::sys::jstring",
        "String[]" => " -> jni::sys::jobjectArray",
        "int[]" => " -> jni::sys::jintArray",
        "long[]" => " -> jni::sys::jlongArray",
        _ => return None,
    })
}

fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

pub fn exports(classes: &[Class]) -> String {
    let mut out = String::from("// Generated by jni/build.rs from jni/native-methods.txt.\n");
    let prefix = PACKAGE.replace('.', "_");
    let mut counted: Vec<String> = Vec::new();
    for class in classes {
        for n in class.items.iter().filter_map(|i| match i {
            Item::Native(n) => Some(n),
            Item::Java(_) => None,
        }) {
            if n.name.contains('_') {
                fail(
                    n.line,
                    "a native method's name has no '_' (JNI would escape it)",
                );
            }
            if let Some(f) = &class.feature {
                let _ = writeln!(out, "#[cfg(feature = \"{f}\")]");
            }
            let params: String = n
                .params
                .iter()
                .map(|(t, p)| format!("    {}: {},\n", snake(p), rust_param(t).unwrap_or_default()))
                .collect();
            let args: Vec<String> = n.params.iter().map(|(_, p)| snake(p)).collect();
            // The product's methods count their calls in the test-hooks build (callCounts).
            let count = if class.feature.is_none() {
                counted.push(n.name.clone());
                format!(
                    "#[cfg(feature = \"test-hooks\")]\n    crate::test_hooks::count_call({});\n    ",
                    counted.len() - 1
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "#[no_mangle]\n#[allow(clippy::too_many_arguments)]\npub extern \"system\" fn Java_{prefix}_{}_{}<'local>(\n    \
                 env: jni::JNIEnv<'local>,\n    class: jni::objects::JClass<'local>,\n{params}){} {{\n    \
                 {count}crate::{}::{}(env, class{}{})\n}}\n",
                class.name,
                n.name,
                rust_result(&n.result).unwrap_or_default(),
                n.module,
                snake(&n.name),
                if args.is_empty() { "" } else { ", " },
                args.join(", "),
            );
        }
    }
    let _ = writeln!(
        out,
        "/// The product's native methods in the order of their call counts.\n\
         #[cfg(feature = \"test-hooks\")]\npub(crate) const COUNTED_METHODS: [&str; {}] = {:?};",
        counted.len(),
        counted
    );
    out
}

fn wrap(words: &[&str], width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for w in words {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + w.len() > width {
            lines.push(w.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(w);
        }
    }
    lines
}

fn java_native(out: &mut String, n: &Native) {
    let doc = n.doc.join(" ");
    if !doc.is_empty() {
        if 4 + 4 + doc.len() + 3 <= JAVA_WIDTH {
            let _ = writeln!(out, "    /** {doc} */");
        } else {
            // An inline tag ({@code X}) stays on one line.
            let mut words: Vec<String> = Vec::new();
            for w in doc.split_whitespace() {
                match words.last_mut() {
                    Some(last) if last.starts_with("{@") && !last.contains('}') => {
                        last.push(' ');
                        last.push_str(w);
                    }
                    _ => words.push(w.to_string()),
                }
            }
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let _ = writeln!(out, "    /**");
            for l in wrap(&words, DOC_WIDTH) {
                let _ = writeln!(out, "     * {l}");
            }
            let _ = writeln!(out, "     */");
        }
    }
    let params: Vec<String> = n.params.iter().map(|(t, p)| format!("{t} {p}")).collect();
    let mut line = format!("    static native {} {}(", n.result, n.name);
    for (i, p) in params.iter().enumerate() {
        let piece = if i + 1 < params.len() {
            format!("{p},")
        } else {
            format!("{p});")
        };
        if line.len() + 1 + piece.len() > JAVA_WIDTH && !line.ends_with('(') {
            let _ = writeln!(out, "{line}");
            line = format!("            {piece}");
        } else {
            if !line.ends_with('(') {
                line.push(' ');
            }
            line.push_str(&piece);
        }
    }
    if params.is_empty() {
        line.push_str(");");
    }
    let _ = writeln!(out, "{line}");
}

pub fn java(class: &Class) -> String {
    let mut out = format!(
        "// Copyright 2025-2026 The cks-state authors\n// SPDX-License-Identifier: Apache-2.0\n\
         // Generated by jni/build.rs from jni/native-methods.txt: edit that file, then run\n\
         // `CKS_UPDATE_CODES=1 cargo test -p cks-state-jni` and commit this one.\npackage {PACKAGE};\n\n"
    );
    let mut after_native = false;
    for item in &class.items {
        match item {
            Item::Java(text) => {
                if after_native {
                    out.push('\n');
                    after_native = false;
                }
                let _ = writeln!(out, "{text}");
            }
            Item::Native(n) => {
                out.push('\n');
                java_native(&mut out, n);
                after_native = true;
            }
        }
    }
    out.push_str("}\n");
    out
}
