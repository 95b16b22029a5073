fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[2]).unwrap();
    let it: Box<dyn Iterator<Item = Result<kifu::Event<'_>, kifu::Error>>> = match args[1].as_str() {
        "sgf" => Box::new(kifu::sgf::Reader::new(&bytes)),
        "v1" => Box::new(kifu::jgf::v1::Reader::with_dialect(&bytes, Default::default(), kifu::json::Dialect::Lenient)),
        
        "gojson" => Box::new(kifu::gocaml::Reader::new(&bytes)),
        _ => Box::new(kifu::jgf::v2::Reader::with_dialect(&bytes, Default::default(), kifu::json::Dialect::Lenient)),
    };
    for e in it {
        match e {
            Ok(e) => println!("{e:?}"),
            Err(e) => println!("ERR {e}"),
        }
    }
}
