import Foundation

/// A navigational star: its mean place at J2000.0 (ICRS) and its proper motion.
public struct Star: Hashable, Sendable {
    /// Its number in the Nautical Almanac's list of 57; nil for Polaris.
    public let number: Int?
    /// The almanac's name.
    public let name: String
    /// Other names a navigator may type.
    public let aliases: [String]
    /// Hours, J2000.0.
    let rightAscension: Double
    /// Degrees, J2000.0.
    let declination: Double
    /// μα cos δ and μδ, milliarcseconds a year.
    let properMotionRA: Double
    let properMotionDec: Double
    /// Visual magnitude.
    public let magnitude: Double
}

extension Star {
    /// The Nautical Almanac's 57 selected stars, by number, and Polaris. Places and proper
    /// motions: the Hipparcos Catalogue (ESA 1997, SP-1200, CDS I/239), carried from its
    /// epoch J1991.25 to J2000.0 along the proper motion; α Cen A for Rigil Kentaurus.
    /// Annual parallax (at most 0.75″, Rigil Kentaurus) is left out.
    public static let catalogue: [Star] = [
        Star(number: 1, name: "Alpheratz", aliases: ["Sirrah"], rightAscension: 0.13979405, declination: 29.09043197, properMotionRA: 135.68, properMotionDec: -162.95, magnitude: 2.07),
        Star(number: 2, name: "Ankaa", aliases: [], rightAscension: 0.43806972, declination: -42.30598144, properMotionRA: 232.76, properMotionDec: -353.64, magnitude: 2.40),
        Star(number: 3, name: "Schedar", aliases: [], rightAscension: 0.67512237, declination: 56.53733107, properMotionRA: 50.36, properMotionDec: -32.17, magnitude: 2.24),
        Star(number: 4, name: "Diphda", aliases: [], rightAscension: 0.72649196, declination: -17.98660457, properMotionRA: 232.79, properMotionDec: 32.71, magnitude: 2.04),
        Star(number: 5, name: "Achernar", aliases: [], rightAscension: 1.62856849, declination: -57.23675744, properMotionRA: 88.02, properMotionDec: -40.08, magnitude: 0.45),
        Star(number: 6, name: "Hamal", aliases: [], rightAscension: 2.11955753, declination: 23.46242310, properMotionRA: 190.73, properMotionDec: -145.77, magnitude: 2.01),
        Star(number: 7, name: "Acamar", aliases: [], rightAscension: 2.97102074, declination: -40.30467239, properMotionRA: -53.53, properMotionDec: 25.71, magnitude: 2.88),
        Star(number: 8, name: "Menkar", aliases: [], rightAscension: 3.03799227, declination: 4.08973396, properMotionRA: -11.81, properMotionDec: -78.76, magnitude: 2.54),
        Star(number: 9, name: "Mirfak", aliases: [], rightAscension: 3.40538065, declination: 49.86117958, properMotionRA: 24.11, properMotionDec: -26.01, magnitude: 1.79),
        Star(number: 10, name: "Aldebaran", aliases: [], rightAscension: 4.59867740, declination: 16.50930138, properMotionRA: 62.78, properMotionDec: -189.36, magnitude: 0.87),
        Star(number: 11, name: "Rigel", aliases: [], rightAscension: 5.24229787, declination: -8.20164055, properMotionRA: 1.87, properMotionDec: -0.56, magnitude: 0.18),
        Star(number: 12, name: "Capella", aliases: [], rightAscension: 5.27815528, declination: 45.99799106, properMotionRA: 75.52, properMotionDec: -427.13, magnitude: 0.08),
        Star(number: 13, name: "Bellatrix", aliases: [], rightAscension: 5.41885085, declination: 6.34970223, properMotionRA: -8.75, properMotionDec: -13.28, magnitude: 1.64),
        Star(number: 14, name: "Elnath", aliases: [], rightAscension: 5.43819816, declination: 28.60745000, properMotionRA: 23.28, properMotionDec: -174.22, magnitude: 1.65),
        Star(number: 15, name: "Alnilam", aliases: [], rightAscension: 5.60355929, declination: -1.20191983, properMotionRA: 1.49, properMotionDec: -1.06, magnitude: 1.69),
        Star(number: 16, name: "Betelgeuse", aliases: [], rightAscension: 5.91952924, declination: 7.40706274, properMotionRA: 27.33, properMotionDec: 10.86, magnitude: 0.45),
        Star(number: 17, name: "Canopus", aliases: [], rightAscension: 6.39919718, declination: -52.69566045, properMotionRA: 19.99, properMotionDec: 23.67, magnitude: -0.62),
        Star(number: 18, name: "Sirius", aliases: [], rightAscension: 6.75247697, declination: -16.71611569, properMotionRA: -546.01, properMotionDec: -1223.08, magnitude: -1.44),
        Star(number: 19, name: "Adhara", aliases: ["Adara"], rightAscension: 6.97709679, declination: -28.97208374, properMotionRA: 2.63, properMotionDec: 2.29, magnitude: 1.50),
        Star(number: 20, name: "Procyon", aliases: [], rightAscension: 7.65503283, declination: 5.22499314, properMotionRA: -716.57, properMotionDec: -1034.58, magnitude: 0.40),
        Star(number: 21, name: "Pollux", aliases: [], rightAscension: 7.75526397, declination: 28.02619865, properMotionRA: -625.69, properMotionDec: -45.95, magnitude: 1.16),
        Star(number: 22, name: "Avior", aliases: [], rightAscension: 8.37523211, declination: -59.50948307, properMotionRA: -25.34, properMotionDec: 22.72, magnitude: 1.86),
        Star(number: 23, name: "Suhail", aliases: [], rightAscension: 9.13326624, declination: -43.43258935, properMotionRA: -23.21, properMotionDec: 14.28, magnitude: 2.23),
        Star(number: 24, name: "Miaplacidus", aliases: [], rightAscension: 9.21999318, declination: -69.71720776, properMotionRA: -157.66, properMotionDec: 108.91, magnitude: 1.67),
        Star(number: 25, name: "Alphard", aliases: [], rightAscension: 9.45978980, declination: -8.65860253, properMotionRA: -14.49, properMotionDec: 33.25, magnitude: 1.99),
        Star(number: 26, name: "Regulus", aliases: [], rightAscension: 10.13953074, declination: 11.96720709, properMotionRA: -249.40, properMotionDec: 4.91, magnitude: 1.36),
        Star(number: 27, name: "Dubhe", aliases: [], rightAscension: 11.06213019, declination: 61.75103324, properMotionRA: -136.46, properMotionDec: -35.25, magnitude: 1.81),
        Star(number: 28, name: "Denebola", aliases: [], rightAscension: 11.81766043, declination: 14.57206038, properMotionRA: -499.02, properMotionDec: -113.78, magnitude: 2.14),
        Star(number: 29, name: "Gienah", aliases: ["Gienah Corvi"], rightAscension: 12.26343617, declination: -17.54192948, properMotionRA: -159.58, properMotionDec: 22.31, magnitude: 2.58),
        Star(number: 30, name: "Acrux", aliases: [], rightAscension: 12.44330439, declination: -63.09909168, properMotionRA: -35.37, properMotionDec: -14.73, magnitude: 0.77),
        Star(number: 31, name: "Gacrux", aliases: [], rightAscension: 12.51943314, declination: -57.11321175, properMotionRA: 27.94, properMotionDec: -264.33, magnitude: 1.59),
        Star(number: 32, name: "Alioth", aliases: [], rightAscension: 12.90048595, declination: 55.95982123, properMotionRA: 111.74, properMotionDec: -8.99, magnitude: 1.76),
        Star(number: 33, name: "Spica", aliases: [], rightAscension: 13.41988313, declination: -11.16132203, properMotionRA: -42.50, properMotionDec: -31.73, magnitude: 0.98),
        Star(number: 34, name: "Alkaid", aliases: ["Benetnasch"], rightAscension: 13.79234379, declination: 49.31326512, properMotionRA: -121.23, properMotionDec: -15.56, magnitude: 1.85),
        Star(number: 35, name: "Hadar", aliases: ["Agena"], rightAscension: 14.06372347, declination: -60.37303932, properMotionRA: -33.96, properMotionDec: -25.06, magnitude: 0.61),
        Star(number: 36, name: "Menkent", aliases: [], rightAscension: 14.11137457, declination: -36.36995451, properMotionRA: -519.29, properMotionDec: -517.87, magnitude: 2.06),
        Star(number: 37, name: "Arcturus", aliases: [], rightAscension: 14.26102001, declination: 19.18241038, properMotionRA: -1093.45, properMotionDec: -1999.40, magnitude: -0.05),
        Star(number: 38, name: "Rigil Kentaurus", aliases: ["Rigil Kent.", "Rigil Kent", "Alpha Centauri"], rightAscension: 14.66013779, declination: -60.83397588, properMotionRA: -3678.19, properMotionDec: 481.84, magnitude: -0.01),
        Star(number: 39, name: "Zubenelgenubi", aliases: ["Zuben'ubi"], rightAscension: 14.84797587, declination: -16.04177819, properMotionRA: -105.69, properMotionDec: -69.00, magnitude: 2.75),
        Star(number: 40, name: "Kochab", aliases: [], rightAscension: 14.84509068, declination: 74.15550496, properMotionRA: -32.29, properMotionDec: 11.91, magnitude: 2.07),
        Star(number: 41, name: "Alphecca", aliases: [], rightAscension: 15.57813004, declination: 26.71469307, properMotionRA: 120.38, properMotionDec: -89.44, magnitude: 2.22),
        Star(number: 42, name: "Antares", aliases: [], rightAscension: 16.49012803, declination: -26.43200250, properMotionRA: -10.16, properMotionDec: -23.21, magnitude: 1.06),
        Star(number: 43, name: "Atria", aliases: [], rightAscension: 16.81108191, declination: -69.02771505, properMotionRA: 17.85, properMotionDec: -32.92, magnitude: 1.91),
        Star(number: 44, name: "Sabik", aliases: [], rightAscension: 17.17296871, declination: -15.72491023, properMotionRA: 41.16, properMotionDec: 97.65, magnitude: 2.43),
        Star(number: 45, name: "Shaula", aliases: [], rightAscension: 17.56014444, declination: -37.10382115, properMotionRA: -8.90, properMotionDec: -29.95, magnitude: 1.62),
        Star(number: 46, name: "Rasalhague", aliases: [], rightAscension: 17.58224183, declination: 12.56003481, properMotionRA: 110.08, properMotionDec: -222.61, magnitude: 2.08),
        Star(number: 47, name: "Eltanin", aliases: ["Etamin"], rightAscension: 17.94343608, declination: 51.48889500, properMotionRA: -8.52, properMotionDec: -23.05, magnitude: 2.24),
        Star(number: 48, name: "Kaus Australis", aliases: ["Kaus Aust."], rightAscension: 18.40286620, declination: -34.38461611, properMotionRA: -39.61, properMotionDec: -124.05, magnitude: 1.79),
        Star(number: 49, name: "Vega", aliases: [], rightAscension: 18.61564903, declination: 38.78369185, properMotionRA: 201.02, properMotionDec: 287.46, magnitude: 0.03),
        Star(number: 50, name: "Nunki", aliases: [], rightAscension: 18.92109048, declination: -26.29672225, properMotionRA: 13.87, properMotionDec: -52.65, magnitude: 2.05),
        Star(number: 51, name: "Altair", aliases: [], rightAscension: 19.84638864, declination: 8.86832203, properMotionRA: 536.82, properMotionDec: 385.54, magnitude: 0.76),
        Star(number: 52, name: "Peacock", aliases: [], rightAscension: 20.42746051, declination: -56.73509009, properMotionRA: 7.71, properMotionDec: -86.15, magnitude: 1.94),
        Star(number: 53, name: "Deneb", aliases: [], rightAscension: 20.69053187, declination: 45.28033800, properMotionRA: 1.56, properMotionDec: 1.55, magnitude: 1.25),
        Star(number: 54, name: "Enif", aliases: [], rightAscension: 21.73643281, declination: 9.87501126, properMotionRA: 30.02, properMotionDec: 1.38, magnitude: 2.38),
        Star(number: 55, name: "Alnair", aliases: ["Al Na'ir"], rightAscension: 22.13721819, declination: -46.96097539, properMotionRA: 127.60, properMotionDec: -147.91, magnitude: 1.73),
        Star(number: 56, name: "Fomalhaut", aliases: [], rightAscension: 22.96084626, declination: -29.62223601, properMotionRA: 329.22, properMotionDec: -164.22, magnitude: 1.17),
        Star(number: 57, name: "Markab", aliases: [], rightAscension: 23.07934827, declination: 15.20526441, properMotionRA: 61.10, properMotionDec: -42.56, magnitude: 2.49),
        Star(number: nil, name: "Polaris", aliases: ["North Star"], rightAscension: 2.53030100, declination: 89.26410949, properMotionRA: 44.22, properMotionDec: -11.74, magnitude: 1.97),
    ]
}
