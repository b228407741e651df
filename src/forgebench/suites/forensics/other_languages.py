"""What the rules read differently in the languages other than English: negators, clause
breaks, runs of numbered options ("candidats 1 et 3") and frame lists ("los fotogramas 0 y 1",
"第0帧和第1帧") for :mod:`.option_text`; self-corrections ("Korrektur:", "mejor dicho",
"失礼しました、正しくは", "मेरा मतलब", and admitted mistakes: "me equivoqué", "pomyliłem się",
"我看错了", "不对，", "잘못 봤습니다"; "wait": "espera,", "attends,", "等等", "잠깐만요"; "or rather":
"ou plutôt", "o meglio"), overturned first thoughts ("一开始我以为是X，但其实是Y",
"最初はXだと思いましたが") and ordinals over the options ("la tercera máscara", "2番目のマスク",
"세 번째 마스크", "a harmadik jelölt", "друга маска", in French, Spanish, Italian, Portuguese, German, Russian, Japanese, Korean and
Chinese; held in :mod:`.other_numbers` with the option nouns' numbers in words, "Kandidat
drei", "Ứng viên số 4", and re-exported here) for :mod:`.answer_text`.

A wording the rules know in a language is read with that language's negation, or a negated
claim ("ليست حقيقية", "non è generata", "nicht verändert") would count as the claim itself: a
wrong letter. Five kinds:

- :data:`NEG_WORDS_OTHER`: negators written before the words they negate, on whole words ("не"
  inside "стороне" is none): German, Portuguese, French, Dutch, Polish, Russian, Swedish,
  Czech, Spanish, Italian, Romanian ("nu") (with their "none of", "nothing" and "neither" forms: "ninguna",
  "aucune", "nessuna", "nenhuma", "keinerlei", "rien", "nada", "nichts", "ничего", "ni",
  "ни", "weder"), Arabic ("ليس", "ليست", "لا", "غير", "لم"), Vietnamese ("không", "chưa"),
  "nem"; :data:`NEGATOR_ZH`: Chinese "非", "不是", "没有", "未", "无", and "比起"/"与其说" (the
  side compared against);
- :data:`NEGATOR_AFTER`: negators written after the words they negate: Japanese
  ("ではありません", "はない", "がない", "いません", "見当たりません", "見られない"; not
  "違いありません", "must be"), Korean ("아니", "아닌", "않", "없"; not "아니면", "or"),
  Turkish "değil" (to the end of its clause: "gerçek bir fotoğraf değil"), Hindi "नहीं", Chinese "没有被", "不是" ("右上角没有被篡改"); a "No" answering
  the answer's own question ("手机拍的？不是。"); the compared-against side of "closer to X than
  Y" (Korean "보다", Japanese "より"); an object "nothing" after the verb ("eliminado nada");
- :data:`CONCESSIVE_OTHER`: a conceded side ("aunque parece real, ...", "虽然...，"), blanked
  before a binary pair is read, as English "although ...,";
- :func:`doubted`: "I don't think" and "I doubt" ("no creo que", "ich glaube nicht, dass",
  "не думаю", "dudo", "我不认为", "とは思いません"), which negate the rest of their sentence up to
  a "but", past commas;
- :data:`BUT_OTHER`: the other languages' "but" ("aber", "sondern", "mais", "pero", "sino",
  "però", "mas", "maar", "ale", "но", "а", "ama", "nhưng", "بل", "لكن", "लेकिन", "但", "而是",
  "でも", "しかし", "하지만"), which end a negator's reach as English "but" does ("ليست حقيقية،
  بل ..."). Italian "ma" is left out: Polish "nie ma" ("there is no") would lose its "nie".
"""

from __future__ import annotations

import re
from functools import lru_cache

from forgebench.suites.forensics.other_forms import forms_in_english as forms_in_english
from forgebench.suites.forensics.other_numbers import named_numbers as named_numbers
from forgebench.suites.forensics.other_numbers import numbered_options as numbered_options
from forgebench.suites.forensics.other_numbers import ordinals_in_english as ordinals_in_english

NEG_WORDS_OTHER = (
    r"nicht|kein|keine|keinerlei|não|nao|pas|niet|geen|nie|не|нет|inte|ej|icke|není|nejsou|"
    r"ninguna|ninguno|nessuna|nessun|aucune|aucun|nenhuma|nenhum|ليس|ليست|لا|غير|وغير|ولا|وليس|وليست|لم|ليسوا|"
    r"không|chưa|nem|rien|nada|nichts|niente|nulla|nic|ничего|ingenting|(?<=[\w,] )(?<!hii )(?<!huu )(?<!hiyo )(?<!picha )ni|ни|weder|né|nu|"
    r"bukan|tidak|belum|ei\s+ole|eivät\s+ole|eikä|sio|siyo|"
    r"wykluczam|odrzucam|eliminuję|descarto|descartamos|excluyo|j'exclus|j'écarte|j'élimine|"
    r"escludo|scarto|excluo|исключаю|kizárom|exclud|elimin|δεν|όχι|לא|אינה|אינו|אין|ולא|ואינה|ואינו|"
    r"ikke|ikkje|није|nije|hindi|nebol[ao]?|neni|nie\s+je|نه"
)
"""Negators before the negated words, as a regex alternation (matched on whole words)."""
NEGATOR_ZH = re.compile(r"(?:非|不是|不|没有|没|未|并非|无|比起|与其说)[^，。；,.;]{0,3}$")
"""A Chinese negator at most three characters before the negated words."""
COMPARED_AFTER = r"[^\s.,;!?。，；！？、]{0,3}\s?(?:보다|より)"
"""The compared-against side of "closer to Y than X" in Korean and Japanese ("GAN보다는 확산 모델",
"GANよりも拡散モデル"): ruled out beside a binary pair's other side; among more options only
where every option is mentioned, as English "more likely than" (:mod:`.option_text`)."""
NEGATOR_AFTER = re.compile(
    r"(?:\s*\([^()]{1,30}\))?[^.,;!?。，；！？、]{0,8}?(?:ではありません|ではない|じゃない|されていません|されてない|ではなく|"
    r"はありません|がありません|はない|がない|いません|いない|아닙니다|아니(?!면)|아닌|아닐|않|없|değil|नहीं|"
    r"没有被|没被|未被|并未|不是|(?<!違いあり)(?<!かもしれ)ません|見当たらない|見られない|認められない|"
    r"அல்ல|இல்லை|نہیں|নয়|नाही|లేదు|емес|deyil)"
    r"|[^\s.,;!?。，；！？、]{0,3}\s*\?\s*(?:不是|不|いいえ|違います|아니요|아뇨|нет|no|non|nein|não|nee|hayır|nie)(?!\w)"
    r"|[^.,;!?]{0,24}?\sdeğil(?!\w)|"
    + COMPARED_AFTER
    + r"|\s+(?:nada|nichts|niente|nulla|nic|ничего|nothing)(?!\w)"
    r"|\s*[\"']?\s+(?:kan\s+(?:utelukkes|udelukkes|uteslutas|avvises|forkastes)|kan\s+worden\s+uitgesloten|"
    r"(?:kann|können)\s+ausgeschlossen\s+werden|peut\s+être\s+(?:exclue?|écartée?)|puede\s+descartarse|"
    r"può\s+essere\s+esclus[ao]|pode\s+ser\s+descartad[ao]|może\s+(?:zostać|być)\s+wykluczon[ya]|"
    r"можно\s+исключить|kizárható|elenebilir|رد\s+می[\u200c\s]?شود|مستبعد)(?!\w)"
)
"""Matched right after the negated words (``re.match`` at their end), past a bracketed gloss
("除去（Removal）ではありません"), or a "can be ruled out" after it ("«non AI-manipulated» kan
utelukkes", "AI-generated رد می‌شود")."""
BUT_OTHER = (
    r"(?<!\w)(?:aber|sondern|mais|pero|sino|però|mas|porém|maar|ale|но|а|ama|fakat|ancak|nhưng|"
    r"بل|لكن|ولكن|लेकिन|बल्कि|αλλά)(?!\w)|但是|但|而是|不过|でも|しかし|けど|하지만"
)
"""Clause breaks of the other languages, as a regex alternation."""
CONDITIONAL_OTHER = (
    r"\b(?=[sSwWfFaAoOiIpPjJeEnNkKеЕяЯαΑإاאअयหถhHdDаАkK])(?:(?:hvis|dersom)\s[^.\n]*(?:ellers|hvis\s+ikke|[;,]\s*(?:men\s+)?hvis)|"
    r"(?:ako|ak)\s[^.\n]*(?:inače|inak|u\s+suprotnom|v\s+opačnom\s+prípade)|ако\s[^.\n]*(?:иначе|в\s+противен\s+случай|у\s+супротном)|"
    r"dacă\s[^.\n]*(?:altfel|în\s+caz\s+contrar)|ha\s[^.\n]*(?:különben|egyébként|ha\s+nem)|jos\s[^.\n]*(?:muuten|jos\s+ei)|"
    r"kama\s[^.\n]*(?:vinginevyo|kama\s+si)|kung\s[^.\n]*(?:kung\s+hindi|kung\s+hindi\s+naman)|si\s[^.\n]*(?:altrament|si\s+no\b)|se\s[^.\n]*(?:altrimenti|caso\s+contrário|senão)|si\s[^.\n]*(?:sinon|de\s+lo\s+contrario|"
    r"en\s+caso\s+contrario|si\s+no\s*,)|(?:wenn|falls|sofern)\s[^.\n]*(?:sonst|andernfalls|ansonsten|[;,]\s*(?:aber\s+|und\s+)?(?:wenn|falls))|"
    r"als\s[^.\n]*[,;]\s*(?:anders|zo\s+niet|(?:maar\s+|en\s+)?als)|(?:om|ifall)\s[^.\n]*annars|(?:pokud|jestli|jestliže)\s[^.\n]*jinak|"
    r"(?:если|якщо)\s[^.\n]*(?:иначе|інакше|в\s+противном\s+случае|в\s+іншому\s+разі|если\s+нет)|"
    r"(?:jeśli|jeżeli)\s[^.\n]*(?:w\s+przeciwnym\s+razie|inaczej|jeśli\s+nie)|eğer\s[^.\n]*(?:aksi\s+(?:halde|takdirde)|değilse)|"
    r"αν\s[^.\n]*αλλιώς|nếu\s[^.\n]*(?:nếu\s+không|ngược\s+lại)|(?:jika|kalau|apabila)\s[^.\n]*(?:jika\s+tidak|"
    r"kalau\s+tidak|sebaliknya)|إذا\s[^.\n]*وإلا|اگر\s[^.\n]*وگرنه|אם\s[^.\n]*אחרת|"
    r"(?:अगर|यदि)\s[^।.\n]*(?:वरना|नहीं\s+तो|अन्यथा)|หาก[^.\n]*ไม่เช่นนั้น|ถ้า[^.\n]*ไม่เช่นนั้น)(?!\w)|"
    r"(?=[もなで場])(?:もし|なら|ならば|であれば|場合は)[^。\n]*(?:そうでなければ|でなければ|そうでない場合|違う場合|でない場合)|"
    r"[다라]면\s[^.\n]*(?:지만|그렇지\s*않|아니면|아니라면|없다면|않다면|않는다면)"
)
"""Conditional choices in the other languages ("se ..., altrimenti A", "si ..., sinon C",
"wenn ..., sonst B", "如果" is in :data:`.hedges.CONDITIONAL`, "もし...でなければ", Korean
"...다면 후보 2가 ...지만": a pick under a condition, then a turn): ``Z``, as English "if X then C,
otherwise B"."""
_CONCLUDING_WORDS = (
    "respuesta", "réponse", "antwort", "risposta", "resposta", "ответ", "відповідь", "odpowiedź", "antwoord",
    "cevap", "yanıt", r"svar(?:et)?", "odpověď", "απάντηση", r"đáp\s+án", r"câu\s+trả\s+lời", "jawaban", "jawapan",
    r"por\s+(?:lo\s+)?tanto", r"en\s+conclusión", "concluyo", "elijo", r"me\s+quedo\s+con", "donc",
    r"par\s+conséquent", r"en\s+conclusion", r"je\s+(?:choisis|retiens|opte)", "daher", "deshalb", "folglich",
    "fazit", r"ich\s+(?:wähle|entscheide\s+mich|tippe\s+auf)", "quindi", "pertanto", "dunque",
    r"in\s+conclusione", "scelgo", "portanto", r"em\s+conclusão", "escolho", "поэтому", "следовательно", "итак",
    "выбираю", "итог", r"в\s+итоге", "вывод", "тому", "отже", "обираю", "dlatego", "zatem", "wybieram", "daarom", r"ik\s+kies", r"bu\s+nedenle",
    "dolayısıyla", r"sonuç\s+olarak", "därför", r"jag\s+väljer", "proto", "vybírám", "επομένως", "συνεπώς",
    "επιλέγω", r"vì\s+vậy", r"do\s+đó", r"tôi\s+chọn", r"oleh\s+karena\s+itu", r"saya\s+(?:pilih|memilih)", r"jadi\s+(?:jawapan|jawaban|pilihan)",
)  # fmt: skip
_FIRST = "".join(sorted({c for w in _CONCLUDING_WORDS for c in (w[0], w[0].upper())}))
CONCLUDING_OTHER = (
    rf"\b(?-i:(?=[{_FIRST}])(?:"
    + "|".join(f"[{w[0].upper()}{w[0]}]{w[1:]}" for w in _CONCLUDING_WORDS)
    + r"))(?![^\W\d_])|"
    r"(?=[الأپبתלउइคด答回正しよ結選정답따그결선고因所结综我])(?:الإجابة|الجواب|لذلك|أختار|الخلاصة|الاستنتاج|پاسخ|بنابراین|תשובה|לכן|"
    r"उत्तर|इसलिए|คำตอบ|ดังนั้น|答え|回答[:：は]|正解|したがって|よって|結論|選びます|정답|답[:：은]|따라서|"
    r"그러므로|결론|선택합니다|고르겠습니다|答案|因此|所以|结论|综上|我选)"
)
"""Concluding cues of the other languages ("Respuesta:", "Meine Antwort lautet", "donc",
"quindi", "ich wähle", "答えは", "정답은", "因此"): a sentence holding one concludes, as English
"Therefore ..." and "Answer: ..." (:mod:`.final_cue`); a sentence connective only where it
starts a word (German "also", Portuguese "logo" are left out: English words); matched in lower
case or capitalised only, past a check of the first letter (an alternation tried without case
folding is far cheaper)."""
AFTER_LETTER_OTHER = frozenset(
    ["ist", "est", "es", "è", "é", "wäre", "sería", "serait", "sarebbe", "seria", "scheint", "semble",
     "parece", "sembra", "passt", "correspond", "corresponde", "corrisponde", "y", "e", "o", "und", "oder", "ou",
     "et", "oppure", "lub", "veya", "hoặc", "är", "jest", "je", "или", "и", "ve", "ya", "och", "eller", "en",
     "và", "dan", "atau", "nebo", "sau", "vagy", "és", "albo", "oraz", "ili", "tai", "ή", "και",
     "zamiast", "statt", "anstatt", "plutôt", "piuttosto", "invece", "framför", "istället", "místo", "namiesto"]
)  # fmt: skip
"""Words that make a Latin "A" before them the option letter in the other languages ("A ist
wahrscheinlicher als D", "A est plus probable"), not an article (read by :mod:`.reading`)."""
CONCESSIVE_OTHER = (
    r"(?<!\w)(?:aunque|obwohl|auch\s+wenn|bien\s+que?|quoique|même\s+si|anche\s+se|sebbene|benché|"
    r"embora|ainda\s+que|mesmo\s+que|хотя|chociaż|mặc\s+dù|även\s+om|i\s+když|přestože)(?!\w)"
    r"[^,.;，。；]*[,;，；]|(?:虽然|尽管)[^，,。；;]*[，,]|"
    r"(?:^|(?<=[。！？\n]))[^。、！？\n]*?(?:ように見え|に見え|みたい|っぽい)[^。、！？\n]{0,4}?"
    r"(?:が|けれども|けれど|けど)[、,]|"
    r"(?:^|(?<=[.!?\n]))[^.!?\n]*?(?:처럼\s*보이|것\s*같|듯\s*보이)[^.!?\n\s]{0,3}(?:지만|는데도)(?=\s)"
)
"""A conceded side in the other languages ("aunque parece real, ...", "虽然看起来很真实，",
"本物のように見えますが、", "진짜처럼 보이지만": a "but" in Japanese and Korean only after "looks
like"): blanked before a binary pair is read."""
_DOUBTED = re.compile(
    r"(?<!\w)(?:no\s+creo|no\s+pienso|dudo|je\s+ne\s+(?:pense|crois)\s+pas|je\s+doute|"
    r"ich\s+(?:glaube|denke)\s+nicht|ich\s+bezweifle|non\s+(?:credo|penso)|dubito|"
    r"não\s+(?:acho|creio|penso)|duvido|(?:я\s+)?не\s+(?:думаю|считаю|верю)|сомневаюсь|"
    r"nie\s+(?:sądzę|myślę)|wątpię|sanmıyorum|düşünmüyorum|tror\s+inte|nemyslím)(?!\w)|"
    r"我不认为|我不觉得|我怀疑|不太可能是|とは思いません|とは思わない|"
    r"(?:라고|다고)\s*(?:생각하지\s*않|보지\s*않)"
)
_SENTENCE_END = re.compile(r"[.;!?。；！？\n]|" + BUT_OTHER + r"|\bbut\b")


def doubted(hay: str, start: int) -> bool:
    """Whether the words at ``start`` follow, in the same sentence and before any "but", an "I
    don't think" or "I doubt" of another language ("No creo que esté en la esquina superior
    izquierda", "Ich glaube nicht, dass es oben links ist"): a negation reaching past commas."""
    before = hay[:start]
    cut = max((m.end() for m in _SENTENCE_END.finditer(before)), default=0)
    return bool(_DOUBTED.search(before[cut:]))


CORRECTION_OTHER = (
    r"(?<!\w)(?:korrektur|correctie|désolée?|je\s+m'excuse|toutes\s+mes\s+excuses|lo\s+siento|disculp(?:a|e|as)|"
    r"perdona|desculpa|ursäkta|beklager|undskyld|(?:mohon\s+)?maaf|ik\s+bedoel(?:de)?|ich\s+meinte|ich\s+korrigiere|berichtigung|correction\s*:|je\s+me\s+corrige|"
    r"en\s+fait|mejor\s+dicho|corrijo|me\s+corrijo|corrección|correzione|volevo\s+dire|mi\s+correggo|"
    r"correção|me\s+corrijo|koreksi|ralat|pembetulan|setelah\s+(?:dilihat|diperhatikan)\s+(?:lagi|kembali|lebih\s+teliti)|đính\s+chính|sửa\s+lại|oprava|javítás|corectez|corectare|διόρθωση|виправлення|תיקון|düzeltiyorum|"
    r"исправлюсь|поправка|точнее|я\s+имел\s+в\s+виду|я\s+имела\s+в\s+виду|"
    r"düzeltme|demek\s+istedim|poprawka|miałem\s+na\s+myśli|xin\s+lỗi|ý\s+tôi\s+là|"
    r"أقصد|قصدت|تصحيح|عفو[ًا]*|عذر[ًا]*|أعتذر|الصحيح\s+هو|माफ़\s+कीजिए|माफ़\s+करें|मेरा\s+मतलब|सुधार|"
    r"me\s+equivoqu[ée]|me\s+he\s+equivocado|je\s+me\s+suis\s+trompée?|mi\s+sono\s+sbagliat[oa]|"
    r"enganei-me|me\s+enganei|ich\s+habe\s+mich\s+(?:geirrt|vertan)|ich\s+lag\s+falsch|entschuldigung|"
    r"przepraszam|pomylił(?:em|am)\s+się|scusa|scusami|scusate|chiedo\s+scusa|mi\s+scuso|я\s+ошиб(?:ся|лась)|прошу\s+прощения|yanıldım|"
    r"özür\s+dilerim|spletl(?:a)?\s+jsem\s+se|omlouvám\s+se|tévedtem|bocsánat|ik\s+vergiste\s+me|"
    r"förlåt|jag\s+tog\s+fel|jag\s+menade|unnskyld|jeg\s+mente|właściwie\s+nie|javítom|helyesbítek|"
    r"διόρθωση|συγγνώμη|εννοούσα|κάνω\s+λάθος|έκανα\s+λάθος|עכשיו\s+אני\s+רואה|טעיתי|סליחה|תיקון|"
    r"התכוונתי|দুঃখিত|সংশোধন|আমি\s+ভুল|tôi\s+nhầm|перепрошую|вибачте|точніше|ou\s+plutôt|o\s+mejor\s+dicho|"
    r"oder\s+besser\s+gesagt|o\s+meglio|ou\s+melhor|или\s+скорее|(?:non|nein|no|não|нет)\s*,\s*(?:plutôt|doch|"
    r"mejor|piuttosto|melhor|скорее))(?!\w)|"
    r"(?<!\w)(?:espera|attends|attendez|moment\s+mal|einen\s+moment|(?:nein|nee)[,\s]+moment|warte|aspetta|aspetti|подожди(?:те)?|"
    r"chwila|czekaj|bekle|khoan\s+đã|wacht|vänta)(?=\s*[,.:;!—–-])|等等|等一下|待って|잠깐(?:만요)?|"
    r"ขออภัย|ที่ถูกต้องคือ|失礼しました|訂正します|訂正|正しくは|更正|纠正|我是说|我的意思是|正确答案是|정정|"
    r"정확히는|제\s*말은|不对[，,。！!\s]|我再看一下|我看错了|我搞错了|間違えました|"
    r"見間違え|잘못\s*(?:봤|보았|말했|답했|읽었)|제가\s*틀렸|다시\s*(?:보니|생각해\s*보니)|よく見ると|見直すと|"
    r"改めて見ると|仔细(?:一)?看|再看一下|(?<!\w)(?:pensándolo\s+mejor|mirándolo\s+mejor|à\s+la\s+réflexion|"
    r"bei\s+genauerem\s+hinsehen|ripensandoci|a\s+pensarci\s+bene|pensando\s+melhor|po\s+namyśle|"
    r"если\s+присмотреться|присмотревшись|tekrar\s+bakınca|bij\s+nader\s+inzien)(?!\w)"
)
"""Self-corrections in the other languages ("Korrektur:", "mejor dicho", "失礼しました、正しくは",
"मेरा मतलब", "我是说"): what follows wins over what they correct (:mod:`.answer_text`)."""
FIRST_THOUGHT_OTHER = (
    r"(?<!\w)(?:au\s+début|d'abord|al\s+principio|inicialmente|zuerst|anfangs|all'inizio|"
    r"inizialmente|no\s+início|a\s+princípio|сначала|поначалу|ilk\s+başta|początkowo|ban\s+đầu|"
    r"a\s+primera\s+vista|au\s+premier\s+abord|à\s+première\s+vue|auf\s+den\s+ersten\s+blick|"
    r"a\s+prima\s+vista|à\s+primeira\s+vista|на\s+первый\s+взгляд|ho\s+esitato|ero\s+indecis[oa]|j'ai\s+hésité|"
    r"j'hésitais|dudé|dudaba|hesitei|fiquei\s+em\s+dúvida|geschwankt|gezögert|hin-\s*und\s+hergerissen|"
    r"колебал(?:ся|ась)|wahał(?:em|am)\s+się|twijfelde|tvekade|arasında\s+kaldım|phân\s+vân)"
    r"(?!\w)[^.;\n]*?(?<!\w)(?:mais|pero|aber|ma|mas|но|ama|ale|nhưng|maar|men)(?!\w)|"
    r"(?:一开始|起初|最初|刚开始|乍一看|乍看)[^。；\n]*?(?:但|不过|可是)|最初は[^。\n]*?(?:が、|けど|けれど)|"
    r"처음에는[^.\n]*?(?:지만|는데)"
)
"""A first thought the answer then overturns ("zuerst dachte ich X, aber ...", "一开始我以为是X，
但其实是Y", "最初はXだと思いましたが、Y"): what follows the contrast is read first."""


_NUMBERED_RUN = re.compile(
    r"(?<!\w)([^\W\d_]{4,})\s+(\d+)((?:\s*(?:,|&|and|et|und|y|e|i|и|ve|en|och|a)\s*\d+)+)(?![\d\w])"
)


def each_numbered(text: str) -> str:
    """ "candidats 1 et 3" as "candidats 1 et candidats 3" (in any language): each number then
    names its option, and two named options are two, not the first one."""
    return _NUMBERED_RUN.sub(
        lambda m: m.group(1) + " " + m.group(2) + re.sub(r"(\d+)", m.group(1) + r" \1", m.group(3)),
        text,
    )


_FRAME_WORD = re.compile(
    r"(?<!\w)(?:fotogramas?|fotogrammi|fotogramma|quadros?|trames?|kadry|klatki|klatka|"
    r"кадры|кадр[аыов]*|índices|índice|indici|indice|indices|képkock\w*|kehy\w*|ruudu\w*|ruutu\w*|"
    r"bingkai|fremu|cadr(?:ul|ele|e)?|kareler|kare|snímk\w*|snímek|snímok|khung\s+hình|khung(?=\s+\d)|bildrut\w*|καρέ|δείκτης|δείκτες|δείκτη|okvir\w*|кадри|кадрлар|"
    r"fotogramak|kadrlar|kadr|mga\s+frame|chỉ\s+số|images?(?=\s+\d)|"
    r"الإطارات|الإطار|إطارات|إطار|الفهرس|فهرس)(?!\w)|フレーム|프레임|인덱스|इंडेक्स|फ्रेम|ফ্রেম|เฟรม(?:ที่)?|சட்டக[\w\u0b80-\u0bff]*",
    re.I,
)
_AND_BETWEEN = re.compile(
    r"(?<=\d)번?\s*(?:\s(?:y|e|et|und|en|i|и|ve|và|och|a|és|dan|na|ja|și|oraz|og|و|और|மற்றும்|at|eta|ও|және|va|dhe)\s"
    r"(?:(?:el|la|il|lo|le|der|die|den|o)\s+)?|,\s*(?:el|la|il|lo|le|der|die|den|o)\s|和|与|及|、|と|과|와)\s*(?=\d)"
)
_RANGE_BETWEEN = re.compile(
    r"(?<=\d)\s*(?:(?:bis|al|hasta|à|até|ao|до|do|hingga|sampai|sehingga|asti|până\s+la|tot|đến|-ig|tới|až|hadi|til|ถึง)\s+|"
    r"(?:부터|から|到|至|〜|～)\s*)(?=\d)",
    re.I,
)
_OR_BETWEEN = re.compile(
    r"(?<=\d)\s+(?:oppure|o|oder|ou|of|или|lub|albo|atau|hoặc|veya|sau|vagy|tai|أو|या)\s+"
    r"(?:il|el|la|le|los|les|die|der|den|i|gli|os|o)\s+(?=\d)",
    re.I,
)
_FRAMES_ARE = re.compile(
    r"(?<=frames)\s+(?:[^\W\d_]+\s+){0,2}?(?:son|sont|sind|sono|são|są|jsou|adalah|ialah|ni|ovat|olivat|"
    r"sunt|zijn|är|là|dal|del|von|od|từ|dari|de|ay|su|са|er|číslo|broj|број|номер|nummer|dira)\s+(?:(?:el|los|la|las|les|il|i|gli|lo|le|die|der|o|os|as)\s+)?"
    r"(?=\d)|(?<=frames)\s*(?:は|が|은|는|이|가)\s*(?=\d)",
    re.I,
)
_ZH_FRAMES = re.compile(r"第\s*(\d+)\s*帧((?:\s*(?:和|与|及|、|,|，)\s*第\s*\d+\s*帧)*)")


_THAT_IS = re.compile(
    r"(?<!\w)(?:ou\s+seja|o\s+sea|es\s+decir|c'est-à-dire|cioè|d\.\s*h\.|das\s+heißt|то\s+есть|тобто|czyli|"
    r"yaitu|yakni|yani|tức\s+là|adică|eli|dus)\s*[,:]?\s*(?=\d)|(?:即|즉)\s*(?=\d)",
    re.I,
)
"""A list restated after "that is" ("ou seja, 3, 4 e 5"): the frames it gives."""
_ZH_FRAMES_ARE = re.compile(r"帧(?:的索引|索引)?\s*(?:为|是|有|:)\s*(?=\d)")
_FRAMES_IN_BRACKETS = re.compile(
    r" frames \s*\(\s*(\d+(?:\s*(?:,|\s(?:ও|и|og|i|y|e|et|und|dan|na|va|at)\s)\s*\d+)*)\s*\)"
)
_NEGATED_FRAMES = re.compile(
    r"(?:不是|并非|没有|非|不)\s*第\s*\d+\s*帧(?:\s*(?:和|与|及|、)\s*第\s*\d+\s*帧)*|"
    r"(?<!\w)(?:no|not|não|nicht|pas|non|не|nie)\s+(?:(?:los|las|les|die|i|gli|le|os|as|the)\s+)?"
    r"(?:fotogramas?|fotogrammi|fotogramma|quadros?|trames?|frames?|kadry|klatki|кадры|кадр[аыов]*)"
    r"\s+\d+(?:\s*(?:,|y|e|et|und|и|i|and)\s*\d+)*",
    re.I,
)


_NUMBER_WORDS = {
    "0": "null|cero|zero|ноль|нуль|零", "1": "eins|uno|один|一", "2": "zwei|dos|dois|два|二",
    "3": "drei|tres|tre|três|три|三", "4": "vier|cuatro|quattro|quatro|четыре|чотири|四",
    "5": "fünf|cinco|cinque|пять|п'ять|五", "6": "sechs|seis|шесть|шість|六",
    "7": "sieben|siete|sette|sete|семь|сім|七", "8": "acht|ocho|otto|oito|восемь|вісім|八",
    "9": "neun|nueve|nove|девять|дев'ять|九",
}  # fmt: skip
_NUMBER_WORD = re.compile(
    r"(?<![^\W\d_])(?:"
    + "|".join(f"(?P<n{d}>{w})" for d, w in _NUMBER_WORDS.items())
    + r")(?![^\W\d_])|(?:"
    + "|".join(f"(?P<c{d}>{w.rsplit('|', 1)[1]})" for d, w in _NUMBER_WORDS.items())
    + ")",
    re.I,
)
_COUNTED = re.compile(
    r"(?<!\w)(frames?|indices|index)(?!\w)([^.;:!?。；\n]{0,40})|"
    r"(索引|インデックス)(?:为|是|は)?([^.;:!?。；\n]{0,24})",
    re.I,
)


def _digits(m: re.Match[str]) -> str:
    """Number words after a frame or index word as digits ("Frames zwei und drei", "索引是三、四")."""
    head, rest = (" indices ", m.group(4)) if m.group(3) else (m.group(1), m.group(2))

    def digit(w: re.Match[str]) -> str:
        return next(k[1:] for k, v in w.groupdict().items() if v)

    return head + _NUMBER_WORD.sub(digit, rest)


def numbers_in_digits(text: str) -> str:
    """Number words of the other languages as digits where they count frames or indexes ("die
    Frames zwei und drei", "索引为三、四、五", "インデックス一"): the frame-list reading takes
    digits (a few words that are also English or articles, "due", "um", "sei", are left out)."""
    return _COUNTED.sub(_digits, text)


ARABIC_MARKS = "\u0640\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652\u0670"
"""Arabic's optional vowel marks and its tatweel, dropped from answers and option texts alike
("مُولَّدة" and "مولّدة" read as the tables' "مولدة")."""
_EASTERN_DIGITS = str.maketrans(
    "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٪،০১২৩৪৫৬৭৮৯०१२३४५६७८९",
    "01234567890123456789%,01234567890123456789",
    ARABIC_MARKS,
)
_ARABIC_LETTER = re.compile(r"(?<![\u0600-\u06ff])(\(?)([أبجد])\)")
_CYRILLIC_A = re.compile(
    r"(?<=[«\"'(\[])А(?=[»\"')\]])|((?i:ответ|відповідь|вариант|варіант)\s*[:—–-]?\s*)А(?![^\W\d_])"
)

_BARE_LOOKALIKE = re.compile(r"^\W*([АСΑΒ])\W*$")
_TURKISH_SUFFIX = re.compile(
    r"(?<![A-Za-z])([A-Y])'(?:d[ıiuü]r|t[ıiuü]r|y[ıiuü]|y[ea]|d[ea]n?|t[ea]n?|n[ıiuü]n)(?![^\W\d_])"
)
_ANSWER_OTHER = re.compile(
    r"\b(?=[rRaAoOcCyYsSвВjJđĐ])(?:respuesta|réponse|antwort|antwoord|risposta|resposta|odpowiedź|cevap|yanıt|"
    r"svar|odpověď|ответ|відповідь|jawaban|đáp\s+án)\s*[:：]\s*(?=[a-dA-D](?![^\W\d_]))",
    re.I,
)

_CHOSEN_BEFORE_VERB = re.compile(
    r"(?<![A-Za-z])([A-Y])\s*(?:\)\s*)?(?:を|를|을)\s*(?:選びます|選択します|選ぶ|選びました|선택합니다|선택하겠습니다|고르겠습니다|골랐습니다)"
)


def letters_in_latin(text: str) -> str:
    """Arabic and Persian digits as ASCII ("١٠٪": "10%"), Arabic without its optional vowel marks
    ("مُولَّدة": "مولدة", so the tables' words match), the Arabic option letters in brackets
    as Latin ("(ب)": "(B)", "ج)": "C)", the abjad order), a Cyrillic "А" that stands for the
    letter A ("Ответ — «А»"; not "В", which is C in the Cyrillic order and B to the eye), a bare
    look-alike ("С.", Greek "Β"), a Turkish case suffix after a letter ("Doğru seçenek B'dir")
    and another language's "answer:" before a letter ("antwoord: b")."""
    text = text.translate(_EASTERN_DIGITS)
    text = _ARABIC_LETTER.sub(lambda m: m.group(1) + "ABCD"["أبجد".index(m.group(2))] + ")", text)
    text = _CYRILLIC_A.sub(lambda m: (m.group(1) or "") + "A", text)
    if len(text) < 8:  # a bare Cyrillic "А" or "С", Greek "Α" or "Β": the letter it looks like
        text = _BARE_LOOKALIKE.sub(lambda m: "ACAB"["АСΑΒ".index(m.group(1))], text)
    if "'" in text:  # Turkish "B'dir", "C'yi": the letter without its suffix
        text = _TURKISH_SUFFIX.sub(r"\1", text)
    if "選" in text or "선택" in text or "고르" in text:  # "Cを選びます": "I choose C"
        text = _CHOSEN_BEFORE_VERB.sub(r" I choose \1. ", text)
    if ":" in text or "：" in text:  # "antwoord: b": English "answer:", read in lower case too
        text = _ANSWER_OTHER.sub(" answer: ", text)
    return text


def frame_words(text: str) -> str:
    """Frame lists in the other languages as English ("los fotogramas 0 y 1", "第0帧和第1帧",
    "フレーム0と1", "프레임(5, 6, 7)", "伪造帧为3、4、5") for :mod:`.option_text`'s frame reading; a negated list ("不是第0帧",
    "no los fotogramas 2 y 3") is dropped, so that it never joins the others."""
    text = _NEGATED_FRAMES.sub(" ", numbers_in_digits(text))
    text = _ZH_FRAMES.sub(
        lambda m: " frames " + ", ".join(re.findall(r"\d+", m.group(0))) + " ", text
    )
    text = _FRAME_WORD.sub(" frames ", _ZH_FRAMES_ARE.sub(" frames ", text))
    text = _FRAMES_IN_BRACKETS.sub(r" frames \1 ", text)  # "마지막 세 프레임(5, 6, 7)이"
    # "frames sind 4 bis 7", "ou seja, 3, 4 e 5", "fotogrammi 0 e 1 oppure il 6 e il 7"
    text = _THAT_IS.sub(" frames ", _FRAMES_ARE.sub(" ", text))
    text = _OR_BETWEEN.sub(" or frames ", _RANGE_BETWEEN.sub(" to ", text))
    return _AND_BETWEEN.sub(" and ", text)


@lru_cache(maxsize=8192)
def needle(pattern: str) -> str:
    """The literal text a phrase pattern of :mod:`.option_text` starts with ("candidate" of
    ``(?<![a-z0-9])candidate(?:s|es)?\\s+2``): where the answer lacks it, the pattern cannot
    match, and the hundreds of other-language wordings cost a substring test each."""
    body = re.sub(r"^\(\?<!(?:\[a-z0-9\]|\\w)\)", "", pattern)
    lit = re.match(r"(?:\\[^sdwSDWbBAZ0-9]|[^\\()\[\]?*+|.^${}])+", body)
    if lit is None:
        return ""
    text = lit.group(0)
    if body[lit.end() : lit.end() + 1] in ("?", "*", "{"):  # "tops?": the "s" is optional
        text = text[:-2] if re.search(r"\\.$", text) else text[:-1]
    return re.sub(r"\\(.)", r"\1", text)
