//! The panel's two binary assets, drawn and synthesised in code (no binary
//! file in the repository, nothing fetched): the favicon and the
//! completion chime. Both are built once, on first request.

use std::sync::OnceLock;

/// `/favicon.ico`: a 16×16, 32-bit ICO (one BMP image): the panel's accent
/// blue rounded square with a white database cylinder.
pub fn favicon() -> &'static [u8] {
    static ICO: OnceLock<Vec<u8>> = OnceLock::new();
    ICO.get_or_init(draw_favicon)
}

/// `/panel.wav`: a short two-note chime, 16 kHz 16-bit mono PCM.
pub fn chime() -> &'static [u8] {
    static WAV: OnceLock<Vec<u8>> = OnceLock::new();
    WAV.get_or_init(synthesise_chime)
}

const SIZE: usize = 16;

/// The colour of pixel (x, y), y from the top: BGRA.
fn pixel(x: usize, y: usize) -> [u8; 4] {
    const CLEAR: [u8; 4] = [0, 0, 0, 0];
    const BLUE: [u8; 4] = [0xad, 0x5c, 0x0b, 0xff];
    const WHITE: [u8; 4] = [0xff, 0xff, 0xff, 0xff];
    let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
    // Rounded square: corners of radius 3 cut away.
    let r = 3.0;
    let cx = fx.clamp(r, SIZE as f64 - r);
    let cy = fy.clamp(r, SIZE as f64 - r);
    if (fx - cx).powi(2) + (fy - cy).powi(2) > r * r {
        return CLEAR;
    }
    // The cylinder: x in 4..12, body y in 4..12, elliptic top and bottom
    // rims, and a band in the middle.
    let inside_x = (4..12).contains(&x);
    let rim = |centre: f64| ((fx - 8.0) / 4.0).powi(2) + ((fy - centre) / 1.6).powi(2) <= 1.0;
    let band = y == 8 && (5..11).contains(&x);
    if (inside_x && (4..12).contains(&y) && !band) || rim(4.5) || rim(11.5) {
        if rim(4.5) && ((fx - 8.0) / 3.0).powi(2) + ((fy - 4.5) / 0.9).powi(2) <= 1.0 {
            return BLUE; // the opening of the top rim
        }
        return WHITE;
    }
    BLUE
}

fn draw_favicon() -> Vec<u8> {
    let pixels = SIZE * SIZE * 4;
    let mask_row = SIZE.div_ceil(32) * 4;
    let image = 40 + pixels + mask_row * SIZE;
    let mut out = Vec::with_capacity(6 + 16 + image);
    // ICONDIR: reserved, type 1 (icon), one image.
    out.extend_from_slice(&[0, 0, 1, 0, 1, 0]);
    // ICONDIRENTRY: width, height, colours, reserved, planes, bits, size, offset.
    out.extend_from_slice(&[SIZE as u8, SIZE as u8, 0, 0, 1, 0, 32, 0]);
    out.extend_from_slice(&(image as u32).to_le_bytes());
    out.extend_from_slice(&22u32.to_le_bytes());
    // BITMAPINFOHEADER; the height counts the colour and the mask rows.
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(SIZE as i32).to_le_bytes());
    out.extend_from_slice(&(2 * SIZE as i32).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&32u16.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // no compression
    out.extend_from_slice(&((pixels + mask_row * SIZE) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 16]); // resolution, palette
    // Rows bottom-up; the alpha channel decides, so the AND mask is empty.
    for y in (0..SIZE).rev() {
        for x in 0..SIZE {
            out.extend_from_slice(&pixel(x, y));
        }
    }
    out.extend(std::iter::repeat_n(0u8, mask_row * SIZE));
    out
}

const RATE: u32 = 16_000;

fn synthesise_chime() -> Vec<u8> {
    // Two notes (E6 then B6), each a sine with a fast attack and a decay.
    let notes: [(f64, f64, f64); 2] = [(1318.5, 0.0, 0.16), (1975.5, 0.11, 0.30)];
    let total = 0.42;
    let n = (RATE as f64 * total) as usize;
    let mut samples = vec![0f64; n];
    for (freq, start, len) in notes {
        let first = (start * RATE as f64) as usize;
        let count = (len * RATE as f64) as usize;
        for i in 0..count.min(n - first) {
            let t = i as f64 / RATE as f64;
            let attack = (t / 0.005).min(1.0);
            let decay = (-t * 9.0).exp();
            samples[first + i] +=
                0.3 * attack * decay * (2.0 * std::f64::consts::PI * freq * t).sin();
        }
    }
    let data_len = (n * 2) as u32;
    let mut out = Vec::with_capacity(44 + n * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32767.0) as i16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_icon_is_a_well_formed_ico() {
        let ico = favicon();
        assert_eq!(&ico[..6], &[0, 0, 1, 0, 1, 0]);
        let size = u32::from_le_bytes(ico[14..18].try_into().unwrap()) as usize;
        let offset = u32::from_le_bytes(ico[18..22].try_into().unwrap()) as usize;
        assert_eq!(offset + size, ico.len());
        assert_eq!(u32::from_le_bytes(ico[22..26].try_into().unwrap()), 40);
        // Some pixels are transparent (corners), some opaque.
        let px = &ico[offset + 40..offset + 40 + 16 * 16 * 4];
        let alphas: Vec<u8> = px.chunks(4).map(|p| p[3]).collect();
        assert!(alphas.contains(&0) && alphas.contains(&255));
    }

    #[test]
    fn the_chime_is_a_short_pcm_wav() {
        let wav = chime();
        assert_eq!(&wav[..4], b"RIFF");
        assert_eq!(&wav[8..16], b"WAVEfmt ");
        let riff = u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize;
        assert_eq!(riff + 8, wav.len());
        let data = u32::from_le_bytes(wav[40..44].try_into().unwrap()) as usize;
        assert_eq!(data + 44, wav.len());
        let secs = data as f64 / (RATE as f64 * 2.0);
        assert!((0.2..1.0).contains(&secs), "{secs} s");
        // Not silence.
        let loudest = wav[44..]
            .chunks(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]).unsigned_abs())
            .max()
            .unwrap();
        assert!(loudest > 3000, "{loudest}");
    }
}
