/// The character tables of SQLite's FTS5 `unicode61` tokenizer with `remove_diacritics 2`, as the
/// SQLite library behind the SQLite store (3.40) reads text, in hexadecimal. Measured codepoint by
/// codepoint through an `fts5vocab` table over each character alone ("x": its folded token, or
/// none) and between two letters ("axb": one token for a diacritic, two for a separator);
/// `CatalogueSearchParityTests` compares `FullTextTokens` with the tokenizer the tests link.
enum FullTextTokenTables {
    /// Codepoints above U+007F that separate tokens: single ones and ranges `first-last`.
    static let separators = """
        80-a9 ab-b1 b4 b6-b8 bb bf d7 f7 2c2-2c5 2d2-2df 2e5-2eb 2ed 2ef-2ff 305 30d-30e 310 312-31a 31c-322 329-32c 32f 332-36f
        375 37e 384-385 387 3f6 482-489 55a-55f 589-58a 58f 591-5c7 5f3-5f4 600-604 606-61b 61e-61f 64b-65f 66a-66d 670 6d4
        6d6-6e4 6e7-6ed 6fd-6fe 700-70d 70f 711 730-74a 7a6-7b0 7eb-7f3 7f6-7f9 816-819 81b-823 825-827 829-82d 830-83e 859-85b
        85e 8e4-8fe 900-903 93a-93c 93e-94f 951-957 962-965 970 981-983 9bc 9be-9c4 9c7-9c8 9cb-9cd 9d7 9e2-9e3 9f2-9f3 9fa-9fb
        a01-a03 a3c a3e-a42 a47-a48 a4b-a4d a51 a70-a71 a75 a81-a83 abc abe-ac5 ac7-ac9 acb-acd ae2-ae3 af0-af1 b01-b03 b3c
        b3e-b44 b47-b48 b4b-b4d b56-b57 b62-b63 b70 b82 bbe-bc2 bc6-bc8 bca-bcd bd7 bf3-bfa c01-c03 c3e-c44 c46-c48 c4a-c4d
        c55-c56 c62-c63 c7f c82-c83 cbc cbe-cc4 cc6-cc8 cca-ccd cd5-cd6 ce2-ce3 d02-d03 d3e-d44 d46-d48 d4a-d4d d57 d62-d63 d79
        d82-d83 dca dcf-dd4 dd6 dd8-ddf df2-df4 e31 e34-e3a e3f e47-e4f e5a-e5b eb1 eb4-eb9 ebb-ebc ec8-ecd f01-f1f f34-f3f
        f71-f87 f8d-f97 f99-fbc fbe-fcc fce-fda 102b-103e 104a-104f 1056-1059 105e-1060 1062-1064 1067-106d 1071-1074 1082-108d
        108f 109a-109f 10fb 135d-1368 1390-1399 1400 166d-166e 1680 169b-169c 16eb-16ed 1712-1714 1732-1736 1752-1753 1772-1773
        17b4-17d6 17d8-17db 17dd 1800-180e 18a9 1920-192b 1930-193b 1940 1944-1945 19b0-19c0 19c8-19c9 19de-19ff 1a17-1a1b
        1a1e-1a1f 1a55-1a5e 1a60-1a7c 1a7f 1aa0-1aa6 1aa8-1aad 1b00-1b04 1b34-1b44 1b5a-1b7c 1b80-1b82 1ba1-1bad 1be6-1bf3
        1bfc-1bff 1c24-1c37 1c3b-1c3f 1c7e-1c7f 1cc0-1cc7 1cd0-1ce8 1ced 1cf2-1cf4 1dc0-1de6 1dfc-1dff 1fbd 1fbf-1fc1 1fcd-1fcf
        1fdd-1fdf 1fed-1fef 1ffd-1ffe 2000-2064 206a-206f 207a-207e 208a-208e 20a0-20b9 20d0-20f0 2100-2101 2103-2106 2108-2109
        2114 2116-2118 211e-2123 2125 2127 2129 212e 213a-213b 2140-2144 214a-214d 214f 2190-23f3 2400-2426 2440-244a 249c-24e9
        2500-26ff 2701-2775 2794-2b4c 2b50-2b59 2ce5-2cea 2cef-2cf1 2cf9-2cfc 2cfe-2cff 2d70 2d7f 2de0-2e2e 2e30-2e3b 2e80-2e99
        2e9b-2ef3 2f00-2fd5 2ff0-2ffb 3000-3004 3008-3020 302a-3030 3036-3037 303d-303f 3099-309c 30a0 30fb 3190-3191 3196-319f
        31c0-31e3 3200-321e 322a-3247 3250 3260-327f 328a-32b0 32c0-32fe 3300-33ff 4dc0-4dff a490-a4c6 a4fe-a4ff a60d-a60f
        a66f-a67e a69f a6f0-a6f7 a700-a716 a720-a721 a789-a78a a802 a806 a80b a823-a82b a836-a839 a874-a877 a880-a881 a8b4-a8c4
        a8ce-a8cf a8e0-a8f1 a8f8-a8fa a926-a92f a947-a953 a95f a980-a983 a9b3-a9cd a9de-a9df aa29-aa36 aa43 aa4c-aa4d aa5c-aa5f
        aa77-aa79 aa7b aab0 aab2-aab4 aab7-aab8 aabe-aabf aac1 aade-aadf aaeb-aaf1 aaf5-aaf6 abe3-abed fb1e fb29 fbb2-fbc1
        fd3e-fd3f fdfc-fdfd fe00-fe19 fe20-fe26 fe30-fe52 fe54-fe66 fe68-fe6b feff ff01-ff0f ff1a-ff20 ff3b-ff40 ff5b-ff65
        ffe0-ffe6 ffe8-ffee fff9-ffff 10100-10102 10137-1013f 10179-10189 10190-1019b 101d0-101fd 1039f 103d0 10857 1091f 1093f
        10a01-10a03 10a05-10a06 10a0c-10a0f 10a38-10a3a 10a3f 10a50-10a58 10a7f 10b39-10b3f 11000-11002 11038-1104d 11080-11082
        110b0-110c1 11100-11102 11127-11134 11140-11143 11180-11182 111b3-111c0 111c5-111c8 116ab-116b7 12470-12473 16f51-16f7e
        16f8f-16f92 1d000-1d0f5 1d100-1d126 1d129-1d1dd 1d200-1d245 1d300-1d356 1d6c1 1d6db 1d6fb 1d715 1d735 1d74f 1d76f 1d789
        1d7a9 1d7c3 1eef0-1eef1 1f000-1f02b 1f030-1f093 1f0a0-1f0ae 1f0b1-1f0be 1f0c1-1f0cf 1f0d1-1f0df 1f110-1f12e 1f130-1f16b
        1f170-1f19a 1f1e6-1f202 1f210-1f23a 1f240-1f248 1f250-1f251 1f300-1f320 1f330-1f335 1f337-1f37c 1f380-1f393 1f3a0-1f3c4
        1f3c6-1f3ca 1f3e0-1f3f0 1f400-1f43e 1f440 1f442-1f4f7 1f4f9-1f4fc 1f500-1f53d 1f540-1f543 1f550-1f567 1f5fb-1f640
        1f645-1f64f 1f680-1f6c5 1f700-1f773 e0001 e0020-e007f e0100-e01ef
        """

    /// Diacritics a token goes on through (dropped from it) though none may start one.
    static let diacritics = "300 301 302 303 304 306 307 308 309 30a 30b 30c 30f 311 31b 323 324 325 326 327 328 32d 32e 330 331"

    /// How codepoints fold (case and accents): `cp=target`, `first-last=target` (all to one), and
    /// `first*count/stride+delta` or `-delta` (each to itself plus delta).
    static let folds = """
        b5=3bc c0-c5=61 c6=e6 c7=63 c8-cb=65 cc-cf=69 d0=f0 d1*2/1-63 d3-d6=6f d8=f8 d9-dc=75 dd=79 de=fe e0-e5=61 e7=63
        e8-eb=65 ec-ef=69 f1*2/1-83 f3-f6=6f f9-fc=75 fd=79 ff=79 100-105=61 106-10d=63 10e-10f=64 110=111 112-11b=65 11c-123=67
        124-125=68 126=127 128-130=69 132=133 134-135=6a 136-137=6b 139-13e=6c 13f*2/2+1 143-148=6e 14a=14b 14c-151=6f 152=153
        154-159=72 15a-161=73 162-165=74 166=167 168-173=75 174-175=77 176-178=79 179-17e=7a 17f=73 181=253 182*2/2+1 186=254
        187=188 189*2/1+cd 18b=18c 18e=1dd 18f=259 190=25b 191=192 193=260 194=263 196=269 197=268 198=199 19c=26f 19d=272
        19f=275 1a0-1a1=6f 1a2*2/2+1 1a6=280 1a7=1a8 1a9=283 1ac=1ad 1ae=288 1af-1b0=75 1b1*2/1+d9 1b3*2/2+1 1b7=292 1b8=1b9
        1bc=1bd 1c4-1c5=1c6 1c7-1c8=1c9 1ca-1cb=1cc 1cd-1ce=61 1cf-1d0=69 1d1-1d2=6f 1d3-1dc=75 1de-1df=61 1e0*3/2+1 1e6-1e7=67
        1e8-1e9=6b 1ea-1ed=6f 1ee=1ef 1f0=6a 1f1-1f2=1f3 1f4-1f5=67 1f6=195 1f7=1bf 1f8-1f9=6e 1fa-1fb=61 1fc*2/2+1 200-203=61
        204-207=65 208-20b=69 20c-20f=6f 210-213=72 214-217=75 218-219=73 21a-21b=74 21c=21d 21e-21f=68 220=19e 222*2/2+1
        226-227=61 228-229=65 22a-231=6f 232-233=79 23a=2c65 23b=23c 23d=19a 23e=2c66 241=242 243=180 244=289 245=28c 246*5/2+1
        370*2/2+1 376=377 386=3ac 388*3/1+25 38c=3cc 38e*2/1+3f 391*17/1+20 3a3*9/1+20 3c2=3c3 3cf=3d7 3d0=3b2 3d1=3b8 3d5=3c6
        3d6=3c0 3d8*12/2+1 3f0=3ba 3f1=3c1 3f4=3b8 3f5=3b5 3f7=3f8 3f9=3f2 3fa=3fb 3fd*3/1-82 400*16/1+50 410*32/1+20 460*17/2+1
        48a*27/2+1 4c0=4cf 4c1*7/2+1 4d0*44/2+1 531*38/1+30 10a0*38/1+1c60 10c7=2d27 10cd=2d2d 1e00-1e01=61 1e02-1e07=62
        1e08-1e09=63 1e0a-1e13=64 1e14-1e1d=65 1e1e-1e1f=66 1e20-1e21=67 1e22-1e2b=68 1e2c-1e2f=69 1e30-1e35=6b 1e36-1e3d=6c
        1e3e-1e43=6d 1e44-1e4b=6e 1e4c-1e53=6f 1e54-1e57=70 1e58-1e5f=72 1e60-1e69=73 1e6a-1e71=74 1e72-1e7b=75 1e7c-1e7f=76
        1e80-1e89=77 1e8a-1e8d=78 1e8e-1e8f=79 1e90-1e95=7a 1e96=68 1e97=74 1e98=77 1e99=79 1e9b=73 1e9e=df 1ea0-1eb7=61
        1eb8-1ec7=65 1ec8-1ecb=69 1ecc-1ee3=6f 1ee4-1ef1=75 1ef2-1ef9=79 1efa*3/2+1 1f08*8/1-8 1f18*6/1-8 1f28*8/1-8 1f38*8/1-8
        1f48*6/1-8 1f59*4/2-8 1f68*8/1-8 1f88*8/1-8 1f98*8/1-8 1fa8*8/1-8 1fb8*2/1-8 1fba*2/1-4a 1fbc=1fb3 1fbe=3b9 1fc8*4/1-56
        1fcc=1fc3 1fd8*2/1-8 1fda*2/1-64 1fe8*2/1-8 1fea*2/1-70 1fec=1fe5 1ff8*2/1-80 1ffa*2/1-7e 1ffc=1ff3 2126=3c9 212a=6b
        212b=61 2132=214e 2160*16/1+10 2183=2184 2c00*47/1+30 2c60=2c61 2c62=26b 2c63=1d7d 2c64=27d 2c67*3/2+1 2c6d=251 2c6e=271
        2c6f=250 2c70=252 2c72=2c73 2c75=2c76 2c7e*2/1-2a3f 2c80*50/2+1 2ceb*2/2+1 2cf2=2cf3 a640*23/2+1 a680*12/2+1 a722*7/2+1
        a732*31/2+1 a779*2/2+1 a77d=1d79 a77e*5/2+1 a78b=a78c a78d=265 a790*2/2+1 a7a0*5/2+1 a7aa=266 ff21*26/1+20 10400*40/1+28
        """
}
