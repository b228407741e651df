"""The option wordings of the rarer languages and of the later rounds (:data:`MORE_LANGUAGES`):
model kinds, manipulation kinds and "no area" as answers in those languages paraphrase them.

Data only, split from :mod:`.wordings` at its data seam (that module merges these into its
:data:`.wordings.OTHER_LANGUAGES` and so into :data:`.wordings.PARAPHRASES`), so that each module
stays short.
"""

from __future__ import annotations

MORE_LANGUAGES: dict[str, tuple[str, ...]] = {
    "diffusion models": ("μοντέλα διάχυσης", "μοντέλο διάχυσης", "διάχυσης", "difuzijskim modelom", "difuzijski model", "difuzni model",
                         "difuzní model", "difúzny model", "diffusjonsmodell", "diffusionsmodel", "diffusjon", "model resapan",
                         "дифузионни модел", "дифузионен модел", "difuzijski", "modelo ng diffusion", "model difuzie",
                         "diffúziós modell", "mfano wa diffusion", "difuzio eredua", "model de difusió"),
    "generative adversarial networks": ("παραγωγικό ανταγωνιστικό δίκτυο", "generatív versengő hálózat", "rangkaian adversarial generatif",
                                        "generativna suparnička mreža", "generativní adversariální síť", "генеративна състезателна мрежа",
                                        "generativt motstridende nettverk", "xarxa generativa adversària"),
    "graphics-based methods": ("μεθόδους γραφικών", "μέθοδοι γραφικών", "γραφικών", "γραφικά", "počítačová grafika", "računalna grafika",
                               "компютърна графика", "datagrafikk", "grafika komputer"),
    "encoder-decoder&graphics-based methods": ("encoder decoder e tecniche di grafica", "encoder decoder e grafica",
                                               "encoder decoder y técnicas gráficas", "encoder decoder et graphiques",
                                               "encoder decoder e computação gráfica", "encoder decoder i grafiki", "encoder decoder dan grafis",
                                               "encoder decoder ve grafik"),
    "encoder-decoder": ("κωδικοποιητή αποκωδικοποιητή", "κωδικοποιητής αποκωδικοποιητής", "enkoder dekoder", "koder dekoder",
                        "кодер декодер", "kodowanie dekodowanie"),
    "proprietary": ("código cerrado", "herramienta comercial", "código fechado", "ferramenta comercial", "codice chiuso", "sorgente chiuso",
                    "strumento commerciale", "code source fermé", "outil commercial", "kommerzielles werkzeug", "kommerziellen werkzeug",
                    "kapalı kaynaklı", "kapalı kaynak", "ticari bir araç", "ticari araç", "zamkniętym kodzie", "zamknięty kod",
                    "komercyjne narzędzie", "komercyjnego narzędzia", "gesloten bron", "commerciële tool", "закрытым исходным кодом",
                    "закритим кодом", "комерційн", "mã nguồn đóng", "công cụ thương mại", "sumber tertutup", "proprietární", "proprietárny", "komerční nástroj", "patentirani", "proprietær", "proprietært", "proprietari"),
    "splicing": ("wklejono", "wklejony", "wklejona", "wklejone", "z innego obrazu", "z innego zdjęcia", "başka bir görüntüden",
                 "başka bir fotoğraftan", "uit een andere foto", "uit een ander beeld", "från en annan bild", "z jiného obrázku",
                 "z jiné fotografie", "з іншого зображення", "з іншої фотографії", "từ một ảnh khác", "từ ảnh khác",
                 "dari gambar lain", "dari foto lain", "سپلائسنگ", "összeillesztés", "cantuman", "spajanje", "splejsing", "сплайсинг", "سرهم", "spájanie", "kuunganisha"),
    "copy-move": ("копіювання та переміщення", "копіювання і переміщення", "того самого зображення", "скопійовано",
                  "копирование и перемещение", "того же самого изображения", "aynı görüntü içinde", "tego samego obrazu",
                  "kopiowanie i przenoszenie", "cùng một ảnh", "העתקה הזזה", "kopiering og flytning", "kopiering og flytting", "másolás áthelyezés", "salin alih", "kopiraj premjesti",
                  "копиране преместване", "kopírovanie presun", "kopírování přesun"),
    "removal": ("fjernet", "fjerning", "uklonjen", "uklonjeno", "премахнат", "премахване", "odstránený", "penyingkiran", "eltávolítva"),
    "face swap (single face)": ("подмяна на лице", "замяна на лице", "zamjena lica", "замена лица", "bytte av ansikt", "ansiktsbytte",
                                "výmena tváre", "výměna obličeje", "pagpapalit ng mukha", "استبدال وجه", "استبدال الوجه",
                                "visage a été remplacé", "visage remplacé", "лицо заменено", "заменено лицо",
                                "twarz została podmieniona", "podmieniono twarz", "обличчя замінено", "заміна обличчя",
                                "khuôn mặt đã bị thay", "얼굴이 바뀌", "얼굴 교체"),
    "face swap (multiple faces)": ("volti di più persone", "scambiati i volti", "caras de varias personas", "rostros de varias personas",
                                   "visages de plusieurs personnes", "rostos de várias pessoas", "twarze kilku osób", "twarzy kilku osób",
                                   "gezichten van meerdere personen", "лица нескольких", "обличчя кількох", "yüzleri değiştirilmiş",
                                   "cares de diverses persones", "intercanviat les cares", "lica više osoba", "flere ansikter",
                                   "лицата на няколко", "tváre viacerých"),
    "face reenactment": ("kasvojen uudelleenanimointi", "uudelleenanimointi", "реконструкција израза лица", "реанимация на лице",
                         "rekonstrukcija izraza lica", "reenactment"),
    "image enhancement": ("îmbunătățirea imaginii", "îmbunătățire a imaginii", "poboljšanje slike", "подобряване на изображението",
                          "bildeforbedring", "billedforbedring", "képjavítás", "peningkatan imej", "vylepšenie obrazu"),
    "no area was manipulated.": ("καμία περιοχή δεν έχει παραποιηθεί", "ешбір аймақ өзгертілмеген", "nijedno područje nije",
                                 "ingen område er manipulert", "ingen områder er manipuleret", "никоя област не е",
                                 "жодну ділянку не було", "жодна ділянка не", "жодну область не було", "жодна область не",
                                 "изменённых областей нет", "измененных областей нет", "ни одна из областей не",
                                 "żaden obszar nie", "không có vùng nào bị", "لم يتم التلاعب بأي منطقة", "لا توجد منطقة معدلة"),
    "entire synthesis": ("pełna synteza", "wygenerowana od zera", "wygenerowany od zera", "synthèse complète",
                         "entièrement synthétisée", "entièrement synthétisé", "síntesis completa", "generada desde cero",
                         "vollständig synthetisiert", "komplett synthetisiert", "sintesi completa", "interamente sintetizzata",
                         "síntese completa", "полностью синтезировано", "полный синтез", "повністю синтезовано",
                         "повний синтез", "tổng hợp hoàn toàn", "전체 합성", "완전히 합성", "完全合成", "全体合成", "整体合成",
                         "توليد كامل", "مولدة بالكامل", "تركيب كامل", "sepenuhnya disintesis", "seluruhnya disintesis"),
}  # fmt: skip
MORE_LANGUAGES_12: dict[str, tuple[str, ...]] = {
    "diffusion models": ("modele dyfuzyjne", "model dyfuzyjny", "modelem dyfuzyjnym", "modelu dyfuzyjnego", "difüzyon model"),
    "graphics-based methods": ("metody graficzne", "metod graficznych", "графические методы", "графических метод"),
    "face swap (multiple faces)": ("flere ansigter", "több arcot", "több arc"),
    "splicing": ("काटकर चिपकाया", "काटकर जोड़ा"),
    "face editing": ("顔の属性", "얼굴 속성"),
}  # fmt: skip
"""Round 12 (h39-fresh21): model and manipulation kinds as paraphrased in Polish, Russian,
Turkish, Danish, Hungarian, Hindi, Japanese, Korean and Indonesian."""
for _key, _forms in MORE_LANGUAGES_12.items():
    MORE_LANGUAGES[_key] = MORE_LANGUAGES.get(_key, ()) + _forms
"""Round 10 (h39-fresh14): the model kinds, manipulation kinds and "no area" in Greek, the South
Slavic languages, Bulgarian, Slovak, Czech, Norwegian and Danish, Hungarian, Malay, Tagalog,
Catalan, Basque, Romanian, Finnish, Kazakh, Hebrew and Urdu; round 11 (h39-fresh17): "no area",
a face swap and an entire synthesis as paraphrased in Ukrainian, Russian, Polish, Vietnamese,
Arabic, French and Korean (and their neighbours); merged into :data:`.wordings.OTHER_LANGUAGES`."""
