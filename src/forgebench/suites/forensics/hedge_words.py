"""The per-language word tables of :mod:`.hedges` (which re-exports them): "I can't tell / I
don't know / not sure / both are plausible" (:data:`CANT_TELL`), "maybe" (:data:`MAYBE`) and "X or
not", "X, or maybe Y" (:data:`OR_NOT`), in English and the other languages the rules know.

Split from :mod:`.hedges` at its data seam, so that each language's forms go in one table and
each module stays short.
"""

from __future__ import annotations

CANT_TELL: dict[str, tuple[str, ...]] = {
    "en": (r"(?:i\s+)?(?:can(?:no|')?t|can\s+not|unable\s+to)\s+decide", r"\binconclusive\b",
           r"none\s+of\s+(?:the\s+)?(?:options|choices|answers|above|listed\s+options)\b|"
           r"none\s+of\s+(?:these|them)\s+(?:exactly|fits?|matches|applies|is\s+(?:right|correct))\b|"
           r"none\s+of\s+(?:these|them)\s*(?:[.!;]|$)|(?:too\s+\w+|not\s+enough)\s+for\s+any\s+of\s+(?:these|them|the\s+options)\b",
           r"(?:a\s+)?close\s+call\s+between\b", r"i(?:'d|\s+would)\s+rather\s+not\s+(?:commit|pick|choose|guess|say)\b",
           r"i\s+take\s+(?:that|it|this)\s+back\b", r"can'?t\s+make\s+up\s+my\s+mind", r"no\s+idea",
           r"(?:can(?:no|')?t|unable\s+to)\s+pin\s+(?:it\s+|this\s+|that\s+)?down",
           r"i(?:'d|\s+would)\s+need\s+(?:the\s+original|more|additional|higher)",
           r"(?:cannot|can't|can\s+not|unable\s+to|not\s+(?:actually\s+|really\s+)?able\s+to)\s+(?:\w+\s+){0,2}?(?:determine|tell|say|verify|"
           r"confirm|settle|distinguish|call\s+it|narrow\s+it\s+down|be\s+(?:sure|certain)|"
           r"be\s+\w+\s+(?:sure|certain)(?=\s+(?:whether|if|which)))\b",
           r"(?:hard|difficult|impossible)\s+to\s+(?:tell|say|determine|judge)\b",
           r"not\s+(?:entirely\s+|really\s+|totally\s+|fully\s+|actually\s+|100%\s+)?(?:sure|certain|confident)\b",
           r"(?:cannot|can't|can\s+not)\s+rule\s+(?:it|this|that|them)\s+out\b",
           r"(?:don't|do\s+not)\s+rely\s+on\s+(?:this|it|that)\b",
           r"(?:don't|do\s+not)\s+have\s+enough\s+(?:information|detail|evidence|context|resolution)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:make|give|reach)\s+(?:a|an|any)\s+(?:\w+\s+)?(?:call|verdict|decision)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:single\s+out|pick|choose|commit\s+to)\s+(?:one|a\s+single|either|between)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:pick|choose)\s*[.!]", r"(?:don't|do\s+not)\s+know\s+(?:which|whether|if)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:attribute|identify|pinpoint|assign)\b", r"\b50\s*/\s*50\b|fifty[\s-]fifty|toss[\s-]up",
           r"could\s+be\s+any\s+(?:of\s+them|one|quadrant|option|region|of\s+the\s+\w+)",
           r"(?:won't|will\s+not|cannot|can't)\s+(?:label|classify|call)\s+(?:it|this|the)\b[^.\n]*\bor\b",
           r"(?:wouldn't|would\s+not|won't|will\s+not|can't|cannot)\s+(?:\w+\s+)?commit\b",
           r"(?:refrain|abstain)\s+from\s+(?:picking|choosing|answering|committing)\b",
           r"(?:leave|leaving)\s+it\s+(?:undecided|open|unanswered)\b",
           r"(?:don't|do\s+not)\s+want\s+to\s+(?:give|pick|commit|guess)\b",
           r"i\s+(?:really\s+|genuinely\s+|honestly\s+|just\s+)?(?:don't|do\s+not)\s+know\b",
           r"(?:weigh|rate|score)\s+(?:these|them|both|the\s+two)\s+(?:about\s+|roughly\s+)?(?:equally|the\s+same)\b",
           r"neither\s+(?:one\s+)?(?:fits|is)\s+(?:clearly\s+|obviously\s+)?(?:better|more\s+likely)\b",
           r"(?:both|either)\s+(?:are|is|seem|look)\s+(?:equally\s+)?(?:plausible|possible|likely)\s*[:;.,]",
           r"wouldn't\s+put\s+(?:much|any)\s+weight\s+on\b",
           r"(?:i'?m|i\s+am)\s+(?:now\s+|genuinely\s+|really\s+|honestly\s+|still\s+|quite\s+)?unsure\b"),
    "fr": (r"je\s+ne\s+(?:peux|sais)\s+pas\s+(?:l['’]|le\s+|la\s+)?(?:\w+\s+){0,2}?(?:dire|savoir|déterminer|décider|trancher|"
           r"confirmer|vérifier|affirmer|analyser|évaluer|juger)",
           r"(?:il\s+est\s+|c['’]est\s+)?impossible\s+(?:de\s+)?(?:l['’]|le\s+)?(?:dire|savoir|déterminer|trancher|affirmer|confirmer)",
           r"les\s+deux\s+(?:\w+\s+){0,2}?(?:sont|semblent|paraissent)\s+(?:\w+\s+)?(?:plausibles|possibles)",
           r"(?:je\s+ne\s+suis\s+)?pas\s+en\s+mesure\s+de", r"je\s+ne\s+saurais\s+(?:pas\s+)?(?:dire|trancher)",
           r"je\s+ne\s+sais\s+pas", r"je\s+n['’]en\s+sais\s+rien", r"difficile\s+(?:à|de)\s+(?:dire|savoir|trancher|déterminer)",
           r"impossible\s+de\s+(?:dire|savoir|déterminer|trancher)", r"je\s+n'arrive\s+pas\s+à\s+(?:décider|trancher)",
           r"(?:je\s+ne\s+suis\s+)?(?:pas|plus)\s+(?:tout\s+à\s+fait\s+|très\s+|vraiment\s+|du\s+tout\s+|si\s+)?(?:sûre?|certaine?)",
           r"je\s+ne\s+m['’]engag\w*\s+pas", r"(?:peux|veux|voudrais)\s+pas\s+m['’]engager", r"sans\s+(?:grande\s+)?conviction"),
    "es": (r"no\s+(?:puedo|sabría|podría)\s+(?:\w+\s+){0,3}?(?:saber|decir|determinar|decidir|confirmar|verificar|afirmar|"
           r"asegurar|analizar|evaluar|juzgar|ayudar)\w*", r"no\s+es\s+posible\s+(?:\w+\s+)?(?:saber|decir|determinar|afirmar|confirmar)\w*",
           r"amb[ao]s\s+(?:\w+\s+){0,2}?(?:son|parecen)\s+(?:\w+\s+)?(?:plausibles|posibles)",
           r"no\s+tengo\s+(?:forma|manera|modo|cómo)\s+de\s+(?:saber|determinar|decir|confirmar)",
           r"no\s+(?:estoy\s+en\s+condiciones|soy\s+capaz|estoy\s+en\s+posición)\s+de", r"no\s+(?:lo\s+)?sé\b", r"no\s+estoy\s+segur[oa]",
           r"(?:es\s+)?difícil\s+(?:de\s+)?(?:decir|saber|determinar)", r"no\s+me\s+(?:comprometería|comprometo|atrevería\s+a\s+(?:afirmar|elegir))", r"no\s+(?:puedo|quiero)\s+comprometerme", r"imposible\s+(?:de\s+)?(?:decir|saber|determinar)"),
    "de": (r"(?:ich\s+)?kann\s+(?:\w+\s+){0,4}?nicht\s+(?:\w+\s+){0,2}?(?:sagen|erkennen|entscheiden|bestimmen|beurteilen|"
           r"feststellen|bestätigen|überprüfen|verifizieren|analysieren)",
           r"lässt\s+sich\s+(?:\w+\s+){0,4}?nicht\s+(?:\w+\s+)?(?:sagen|feststellen|beurteilen|bestimmen|entscheiden|erkennen)",
           r"beide\s+(?:\w+\s+){0,2}?(?:sind|scheinen|wirken)\s+(?:\w+\s+)?(?:plausibel|möglich|denkbar)",
           r"nicht\s+in\s+der\s+lage", r"sicher\s+bin\s+ich\s+(?:mir\s+)?(?:da\s+)?nicht",
           r"schwer\s+zu\s+(?:sagen|erkennen|beurteilen|entscheiden)", r"weiß\s+(?:ich\s+)?(?:es\s+)?nicht", r"nicht\s+sicher",
           r"(?:würde|möchte|will|kann|könnte)\s+(?:ich\s+)?mich\s+(?:\w+\s+){0,2}?nicht\s+festlegen", r"lege\s+mich\s+(?:\w+\s+)?nicht\s+fest",
           r"(?:kann|könnte)\s+(?:\w+\s+){0,2}?keine\s+(?:\w+\s+)?(?:aussagen?|angaben|einschätzung|beurteilung|bewertung)\s+"
           r"(?:\w+\s+){0,2}?(?:treffen|machen|abgeben|geben)", r"nicht\s+genug\s+(?:informationen|hinweise|anhaltspunkte)"),
    "it": (r"non\s+(?:posso|riesco\s+a)\s+(?:\w+\s+){0,3}?(?:dir|saper|determinar|decider|capir|confermar|verificar|"
           r"stabilir|valutar|analizzar|giudicar)(?:e|lo|la|li|ne)\b", r"non\s+(?:lo\s+)?so\b",
           r"non\s+è\s+possibile\s+(?:\w+\s+)?(?:dir|saper|stabilir|determinar|capir|decider|confermar|valutar)\w*",
           r"impossibile\s+(?:da\s+)?(?:dir|stabilir|determinar|capir)\w*",
           r"entramb[ei]\s+(?:\w+\s+){0,2}?(?:sono|sembrano)\s+(?:\w+\s+)?(?:plausibili|possibili|compatibili|valide|verosimili)",
           r"non\s+saprei", r"non\s+sono\s+in\s+grado\s+di", r"(?:esserne|esserlo)\s+(?:del\s+tutto\s+)?(?:cert|sicur)[oa]",
           r"difficile\s+(?:da\s+)?(?:dire|capire|stabilire)", r"non\s+(?:ne\s+)?sono\s+(?:del\s+tutto\s+|affatto\s+|per\s+niente\s+|molto\s+|davvero\s+|proprio\s+)?(?:sicur[oa]|cert[oa])",
           r"non\s+mi\s+sentirei\s+di\s+(?:\w+\s+){0,2}?(?:sceglier|indicar|puntar|affermar|dir|scommetter)\w*",
           r"non\s+mi\s+(?:sbilancer|sbilanc|impegner)\w*", r"non\s+(?:posso|voglio)\s+(?:\w+\s+)?(?:sbilanciarmi|impegnarmi)", r"senza\s+(?:grande\s+|troppa\s+)?convinzione"),
    "pt": (r"não\s+(?:posso|consigo)\s+(?:\w+\s+){0,3}?(?:dizer|saber|determin|decidir|confirm|verific|afirm|"
           r"analis|avali)\w*", r"não\s+é\s+possível\s+(?:\w+\s+)?(?:dizer|saber|determinar|afirmar|confirmar)\w*",
           r"amb[ao]s\s+(?:\w+\s+){0,2}?(?:são|parecem)\s+(?:\w+\s+)?(?:plausíveis|possíveis)",
           r"não\s+sou\s+capaz\s+de", r"não\s+dá\s+para\s+(?:saber|dizer|determinar|afirmar)",
           r"não\s+tenho\s+como\s+(?:saber|dizer|determinar|confirmar|afirmar|verificar)", r"não\s+sei\b", r"não\s+tenho\s+certeza", r"não\s+estou\s+(?:segur[oa]|cert[oa])",
           r"(?:é\s+)?difícil\s+(?:de\s+)?(?:dizer|saber|determinar)", r"não\s+me\s+comprometeria", r"sem\s+(?:muita\s+|grande\s+)?convicção"),
    "nl": (r"niet\s+met\s+(?:zekerheid|stelligheid)", r"beide\s+(?:\w+\s+){0,2}?(?:zijn|lijken)\s+(?:\w+\s+)?(?:mogelijk|plausibel|aannemelijk|even\s+waarschijnlijk)", r"kan\s+(?:\w+\s+){0,3}?niet\s+(?:\w+\s+){0,2}?(?:zeggen|bepalen|beslissen|kiezen|bevestigen|verifiëren|controleren|analyseren|beoordelen)", r"moeilijk\s+te\s+zeggen",
           r"weet\s+(?:ik\s+)?(?:het\s+)?niet", r"niet\s+zeker", r"zeker\s+weten\s+doe\s+ik\s+(?:het\s+)?niet", r"niet\s+(?:\w+\s+){0,2}?(?:vastleggen|vastpinnen)", r"leg\s+me\s+(?:er\s+)?niet\s+(?:op\s+)?vast"),
    "tr": (r"(?:ikisi|her\s+ikisi)\s+de\s+(?:\w+\s+)?(?:olası|mümkün|makul|olabilir)", r"söylemek\s+zor", r"emin\s+değilim", r"bilemiyorum", r"emin\s+olamıyorum", r"karar\s+veremiyorum", r"bilmiyorum",
           r"(?:belirleyemiyorum|anlayamıyorum|söyleyemem|doğrulayamam|doğrulayamıyorum|teyit\s+edemem|teyit\s+edemiyorum)",
           r"yeterli\s+(?:bilgi|veri|kanıt)\w*\s+(?:sahip\s+değilim|yok)", r"emin\s+olamam", r"kesin\s+(?:bir\s+)?(?:şey\s+)?(?:söyleyemem|diyemem)"),
    "pl": (r"(?:oba|obie|obydwa|obydwie)\s+(?:\w+\s+){0,2}?(?:są|wydają\s+się)\s+(?:\w+\s+)?(?:możliwe|prawdopodobne|wiarygodne)", r"trudno\s+(?:powiedzieć|stwierdzić|ocenić|rozstrzygnąć|zdecydować)", r"nie\s+(?:mogę|potrafię|umiem)\s+(?:\w+\s+){0,3}?(?:powiedzieć|określić|"
           r"zdecydować|ocenić|potwierdzić|zweryfikować|stwierdzić|przeanalizować|analizować)",
           r"nie\s+wiem", r"nie\s+jestem\s+pew(?:ien|na)", r"nie\s+upierał(?:bym|abym)", r"nie\s+(?:będę|chcę)\s+się\s+(?:\w+\s+){0,2}?upierać", r"nie\s+dał(?:bym|abym)\s+(?:za\s+to\s+)?głowy"),
    "vi": (r"cả\s+hai\s+(?:\w+\s+){0,2}?(?:đều\s+)?(?:có\s+thể|hợp\s+lý|khả\s+thi)", r"khó\s+(?:nói|xác\s+định)", r"không\s+thể\s+(?:xác\s+định|nói|biết|quyết\s+định|xác\s+nhận|khẳng\s+định|phân\s+tích)",
           r"không\s+chắc",
           r"không\s+biết", r"không\s+dám\s+(?:chắc|khẳng\s+định)"),
    "ru": (r"не\s+могу\s+(?:\w+\s+){0,3}?(?:сказать|определить|решить|понять|анализировать|проанализировать|оценить|"
           r"подтвердить|проверить|судить|установить|помочь)", r"(?:трудно|сложно)\s+(?:сказать|определить|судить|оценить)",
           r"(?:невозможно|нельзя)\s+(?:\w+\s+){0,2}?(?:сказать|определить|установить|судить)",
           r"не\s+в\s+состоянии", r"не\s+берусь", r"(?:сказать|определить|утверждать)\s+не\s+могу",
           r"об[аеи]\s+(?:\w+\s+){0,2}?(?:возможны|правдоподобны|вероятны|допустимы)",
           r"не\s+знаю", r"не\s+уверен[аы]?", r"не\s+стал[аи]?\s+бы\s+(?:\w+\s+){0,2}?(?:настаивать|утверждать|ручаться)", r"не\s+(?:буду|могу)\s+(?:\w+\s+){0,2}?настаивать", r"не\s+ручаюсь"),
    "ar": (r"كلاهما\s+(?:\S+\s+)?(?:محتمل|ممكن|وارد)", r"من\s+الصعب\s+(?:القول|تحديد|الجزم)", r"لا\s+(?:يمكنني|يمكن)\s+(?:\S+\s+)?(?:تحديد|القول|الجزم|التأكد)", r"لا\s+أستطيع\s+(?:\S+\s+)?(?:تحديد|القول|أن\s+أحدد|الجزم|التمييز)",
           r"لا\s+أعرف", r"غير\s+متأكد", r"لن\s+ألتزم", r"لست\s+(?:\S+\s+)?(?:متأكد|متيقن)", r"لا\s+أعلم", r"لا\s+أجزم"),
    "hi": (r"कहना\s+मुश्किल", r"नहीं\s+कह\s+(?:सकता|सकती)", r"तय\s+नहीं\s+कर\s+(?:सकता|सकती|पा)", r"पता\s+नहीं", r"निश्चित\s+नहीं",
           r"नहीं\s+बता\s+(?:सकता|सकती)", r"पुष्टि\s+नहीं\s+कर\s+(?:सकता|सकती|पा)",
           r"दोनों\s+(?:\S+\s+){0,2}?(?:समान|बराबर|संभव)", r"(?:विश्लेषण|निर्धारण)\s+नहीं\s+कर\s+(?:सकता|सकती)"),
    "sv": (r"båda\s+(?:\w+\s+){0,2}?(?:är|verkar)\s+(?:\w+\s+)?(?:möjliga|rimliga|troliga)", r"svårt\s+att\s+(?:säga|avgöra|bedöma)", r"(?:jag\s+)?vet\s+inte", r"inte\s+säker",
           r"kan\s+inte\s+(?:\w+\s+)?(?:avgöra|säga|bedöma|bestämma|bekräfta|verifiera|analysera|fastställa)", r"inte\s+(?:\w+\s+)?(?:binda|låsa)\s+mig"),
    "cs": (r"ob[aě]\s+(?:\w+\s+){0,2}?(?:jsou|se\s+zdají)\s+(?:\w+\s+)?(?:možné|pravděpodobné|věrohodné)", r"těžko\s+(?:říct|říci|posoudit|rozhodnout)", r"nevím", r"nejsem\s+si\s+jist[ýáé]",
           r"(?:nemohu|nemůžu|nedokážu|nelze)\s+(?:\w+\s+){0,3}?(?:určit|říct|říci|rozhodnout|posoudit|potvrdit|ověřit|analyzovat)"),
    "hu": (r"mindkett(?:ő|ő\s+\w+)\s+(?:\w+\s+)?(?:lehetséges|valószínű|elképzelhető)", r"nem\s+tudom\s+(?:\w+\s+)?(?:eldönteni|megmondani|megállapítani|megítélni)", r"nehéz\s+(?:megmondani|eldönteni|megállapítani)",
           r"nem\s+vagyok\s+(?:\w+\s+)?biztos", r"nem\s+lehet\s+(?:\w+\s+)?(?:megállapítani|eldönteni|megmondani)"),
    "ro": (r"nu\s+(?:pot|putem)\s+(?:să\s+)?(?:\w+\s+){0,2}?(?:spune|spun|determina|determin|stabili|stabilesc|decide|"
           r"afirma|confirma|verifica|analiza|evalua)", r"greu\s+de\s+(?:spus|determinat|stabilit)", r"nu\s+știu",
           r"nu\s+sunt\s+(?:\w+\s+)?sigur[ăa]?", r"ambele\s+(?:\w+\s+){0,2}?(?:sunt|par)\s+(?:\w+\s+)?(?:plauzibile|posibile)"),
    "fi": (r"(?:en|emme)\s+(?:\w+\s+)?(?:pysty|osaa|voi)\s+(?:\w+\s+){0,2}?(?:sanomaan|sanoa|arvioimaan|arvioida|"
           r"määrittämään|määrittää|päättämään|päättää|varmistamaan|tunnistamaan|erottamaan)",
           r"vaikea\s+(?:sanoa|arvioida|määrittää|päättää)", r"en\s+tiedä", r"en\s+ole\s+(?:\w+\s+)?varma",
           r"molemmat\s+(?:\w+\s+){0,2}?(?:ovat|vaikuttavat)\s+(?:\w+\s+)?(?:mahdollisia|uskottavia)"),
    "id": (r"(?:saya\s+)?(?:tidak|kurang|belum)\s+(?:terlalu\s+|begitu\s+)?yakin", r"(?:sulit|sukar|susah)\s+(?:untuk\s+)?"
           r"(?:di)?(?:katakan|kata|tentukan|pastikan|nilai|bedakan)\w*", r"(?:tidak|tak)\s+(?:dapat|bisa|boleh|mampu)\s+"
           r"(?:\w+\s+){0,2}?(?:menentukan|memastikan|mengatakan|menilai|membedakan|menganalisis|memutuskan|mengetahui)",
           r"(?:saya\s+)?tidak\s+tahu", r"kedua(?:nya)?\s+(?:\w+\s+){0,2}?(?:sama[\s-]+sama\s+)?(?:mungkin|masuk\s+akal)"),
    "sw": (r"(?:zote|yote)\s+mbili\s+(?:\w+\s+)?(?:zinawezekana|inawezekana)", r"siwezi\s+(?:\w+\s+){0,2}?(?:kubaini|kusema|kujua|kuamua|kutambua|kuthibitisha|kuchambua)", r"ni\s+vigumu\s+kusema",
           r"sina\s+uhakika", r"sijui"),
    "ta": (r"இரண்டும்\s+(?:\S+\s+)?(?:சாத்தியம்|சாத்தியமே)", r"சொல்ல\s+முடியவில்லை", r"தீர்மானிக்க\s+முடியவில்லை", r"உறுதியாக\s+(?:சொல்ல|கூற)\s+முடியாது", r"தெரியவில்லை",
           r"உறுதியாக\s+தெரியவில்லை", r"கண்டறிய\s+முடியவில்லை"),
    "sk": (r"(?:neviem|nemôžem|nedokážem|nedá\s+sa)\s+(?:\w+\s+){0,3}?(?:určiť|povedať|rozhodnúť|posúdiť|potvrdiť|overiť)",
           r"nie\s+som\s+si\s+(?:\w+\s+)?ist[ýá]", r"ťažko\s+(?:povedať|určiť|posúdiť)", r"neviem\b"),
    "sr": (r"(?:не\s+могу|не\s+умем|ne\s+mogu|ne\s+znam)\s+(?:\w+\s+){0,3}?(?:да\s+|da\s+)?(?:кажем|утврдим|одредим|"
           r"проценим|потврдим|kažem|utvrdim|odredim|procijenim|procenim|potvrdim|odlučim)", r"не\s+знам", r"ne\s+znam",
           r"нисам\s+(?:\w+\s+)?сигуран|нисам\s+(?:\w+\s+)?сигурна|nisam\s+(?:\w+\s+)?sigur(?:an|na)", r"тешко\s+је\s+рећи",
           r"te(?:š|sh)ko\s+je\s+(?:reći|reci)", r"са\s+сигурношћу|sa\s+sigurnošću|sa\s+sigurnošću"),
    "bg": (r"не\s+мога\s+(?:\w+\s+){0,3}?да\s+(?:кажа|определя|преценя|потвърдя|реша)", r"не\s+знам",
           r"не\s+съм\s+(?:\w+\s+)?сигур(?:ен|на)", r"трудно\s+е\s+да\s+(?:се\s+)?(?:каже|кажа|прецени)"),
    "no": (r"(?:jeg\s+)?(?:er|er\s+ikke)\s+(?:helt\s+)?(?:usikker)", r"ikke\s+(?:helt\s+|100\s*%\s+)?sikker",
           r"(?:kan|klarer)\s+(?:\w+\s+){0,3}?ikke\s+(?:\w+\s+){0,2}?(?:avgjøre|avgøre|si|sige|bestemme|afgøre|bekrefte|bekræfte|vurdere)",
           r"(?:vanskelig|vanskeligt|svært|svårt)\s+å\s+(?:si|avgjøre)|svært\s+at\s+(?:sige|afgøre)", r"vet\s+ikke|ved\s+ikke",
           r"begge\s+(?:\w+\s+){0,2}?(?:er|virker|ser\s+ut|ser\s+ud)\s+(?:\w+\s+)?(?:mulige|sannsynlige|sandsynlige|plausible)"),
    "ms": (r"(?:saya\s+)?tidak\s+(?:begitu\s+|terlalu\s+)?pasti", r"kedua-duanya\s+(?:\w+\s+){0,2}?(?:boleh|mungkin)"),
    "tl": (r"hindi\s+ako\s+(?:\w+\s+)?sigurado", r"hindi\s+ko\s+(?:\w+\s+){0,2}?(?:masabi|matukoy|alam|masasabi)",
           r"mahirap\s+(?:sabihin|matukoy)"),
    "ca": (r"no\s+(?:n['’]estic|estic)\s+(?:\w+\s+)?segur[a]?", r"no\s+(?:ho\s+)?sé\b",
           r"no\s+puc\s+(?:\w+\s+){0,3}?(?:dir|determinar|saber|decidir|confirmar)", r"és\s+difícil\s+(?:de\s+)?dir"),
    "eu": (r"ez\s+(?:nago|dakit)\s+(?:\w+\s+)?(?:ziur|seguru)", r"ez\s+dakit", r"ezin\s+(?:dut\s+)?(?:esan|zehaztu|erabaki)",
           r"zaila\s+da\s+esatea"),
    "az": (r"əmin\s+deyiləm", r"bilmirəm", r"deyə\s+bilmərəm", r"müəyyən\s+edə\s+bilmirəm", r"demək\s+çətindir"),
    "kk": (r"сенімді\s+емеспін", r"білмеймін", r"айта\s+алмаймын", r"анықтай\s+алмаймын", r"айту\s+қиын"),
    "ur": (r"یقین\s+(?:سے\s+)?نہیں", r"(?:نہیں\s+کہہ\s+سکتا|نہیں\s+کہہ\s+سکتی)", r"معلوم\s+نہیں", r"کہنا\s+مشکل"),
    "bn": (r"নিশ্চিত\s+নই", r"বলা\s+কঠিন", r"বলতে\s+পারছি\s+না", r"জানি\s+না"),
    "mr": (r"खात्री\s+नाही", r"सांगणे\s+कठीण", r"सांगू\s+शकत\s+नाही", r"माहित\s+नाही"),
    "te": (r"ఖచ్చితంగా\s+చెప్పలేను", r"చెప్పడం\s+కష్టం", r"నాకు\s+తెలియదు", r"ఖచ్చితంగా\s+తెలియదు"),
    "ja": (r"(?:(?:判断|回答)を?保留|わかりません|分かりません|わからない|分からない|判断できません|判断できない|言えません|"
           r"決められません|決められない|判断が難しい|判断するのは難しい|どちらとも言え|断定できません|"
           r"(?:自信|確信)(?:は|が)?(?:ありません|ない|持てません|持てない)|確かではありません|確かではない|"
           r"断言できません|断言はできません|言い切れません|言い切れない|断定(?:は)?(?:しません|しない)|"
           r"(?:分析|判定|判別|特定|回答|お答え|検証)(?:は|が|を)?(?:することは)?(?:できません|できかねます|いたしかねます))",),
    "uk": (r"не\s+можу\s+(?:\w+\s+){0,3}?(?:сказати|визначити|підтвердити|перевірити|проаналізувати|аналізувати|оцінити|"
           r"допомогти|судити)", r"(?:важко|складно)\s+(?:сказати|визначити|судити|оцінити)", r"не\s+впевнен\w*", r"обидва\s+(?:\w+\s+)?(?:можливі|ймовірні)"),
    "he": (r"(?:לא|אינני|איני)\s+(?:יכול|יכולה|מסוגל|מסוגלת)?\s*(?:\w+\s+)?(?:לאשר|לקבוע|לדעת|לומר|להגיד|לנתח|לזהות)",
           r"לא\s+בטוח\w*", r"קשה\s+(?:לומר|לקבוע|להגיד)", r"(?:אני\s+)?לא\s+יודע\w*", r"שניהם\s+(?:\w+\s+)?אפשרי\w*"),
    "fa": (r"نمی[\u200c\s]?توانم\s+(?:\S+\s+){0,3}?(?:تأیید|تایید|تعیین|تشخیص|تحلیل|بگویم)", r"مطمئن\s+نیستم",
           r"سخت\s+است\s+(?:بگویم|گفتن)", r"نمی[\u200c\s]?دانم", r"هر\s+دو\s+(?:\S+\s+)?ممکن"),
    "el": (r"δεν\s+είμαι\s+(?:\w+\s+)?(?:σίγουρ|βέβαι)\w*", r"δύσκολο\s+να\s+(?:το\s+)?(?:πω|πει|κρίνω|προσδιορ\w*)", r"δεν\s+ξέρω",
           r"δεν\s+(?:μπορώ|είναι\s+δυνατόν)\s+να\s+(?:το\s+)?(?:\w+\s+){0,2}?(?:πω|προσδιορίσω|επιβεβαιώσω|καθορίσω|διακρίνω|"
           r"αποφασίσω|κρίνω|αναλύσω|επαληθεύσω|ξέρω)", r"και\s+τα\s+δύο\s+(?:\w+\s+){0,2}?(?:πιθαν|δυνατ|εύλογ)\w*"),
    "ko": (r"(?:모르겠|판단하기\s*어렵|알\s*수\s*없|말하기\s*어렵|결정할\s*수\s*없|판단할\s*수\s*없|결정하기\s*어렵|확실하지\s*않|"
           r"(?:판단|결정|답변|선택)(?:을|은)?\s*보류|확실하지(?:는|도)\s*않|(?:확신|자신)(?:이|은)?\s*없|(?:확정|단정)(?:하지는|하지|은)\s*않|(?:장담|단정|확신|분석|답변|판별|판정|검증)할\s*수(?:는|가)?\s*없)",),
    "th": (r"(?:ไม่แน่ใจ|ไม่สามารถ(?:ระบุ|วิเคราะห์|ยืนยัน|บอก|ตัดสิน)|บอกไม่ได้|ยากที่จะ(?:บอก|ระบุ|ตัดสิน)|ไม่ทราบ)",),
    "zh": (r"(?:保留(?:判断|意见)|暂不(?:下结论|判断)|无法判断|不能确定|很难说|难以判断|说不准|不好说|无法确定|不确定|难以确定|拿不准|无法决定|决定不了|不知道|"
           r"说不好|不会(?:确定|肯定|断定)|不敢(?:确定|断定)|不敢肯定|不能肯定|无法肯定|无法确认|不能确认|没法确认|无法判定|不好判断|都有可能|皆有可能|(?:无法|不能)(?:验证|核实|分析))",),
}  # fmt: skip
"""Per language: "I can't tell / say / decide", "hard to say", "I don't know", "not sure"."""

MAYBE = (
    r"maybe|perhaps|possibly|(?:(?<=^)|(?<=[.!?;]\s))(?:it\s+)?(?:could|might)\s+(?:well\s+)?be|peut[\s-]être|quizás?|tal\s+vez|talvez|vielleicht|möglicherweise|forse|"
    r"misschien|belki|może|có\s+lẽ|kanske|možná|ربما|शायद|也许|或许|可能|たぶん|多分|かもしれ|아마|어쩌면|возможно|может\s+быть|"
    r"mungkin|ehkä|labda|talán|ஒருவேளை|ίσως|אולי|ייתכן|יתכן|شاید|kanskje|måske|možno|možda|можда|може\s+би|potser|"
    r"agian|siguro|marahil|bəlkə|হয়তো|कदाचित|బహుశా"
)
""""Maybe" in the eighteen languages ("could be" / "might be" in English): twice, each before another
option, is a hedge ("Could be A. Could be B.")."""

_END = r"(?=\s*(?:[.;,!?:)]|$))"
OR_NOT: dict[str, tuple[str, ...]] = {
    "en": (rf"or\s+not{_END}",),
    "fr": (rf"ou\s+(?:peut-être\s+)?(?:pas|non){_END}",), "es": (rf"o\s+(?:tal\s+vez\s+|quizás?\s+)?no{_END}",),
    "it": (rf"o\s+(?:forse\s+)?(?:no|meno){_END}",), "pt": (rf"ou\s+(?:talvez\s+)?não{_END}",),
    "de": (rf"oder\s+(?:auch\s+|vielleicht\s+)?nicht{_END}",), "nl": (rf"of\s+(?:misschien\s+)?niet{_END}",),
    "ru": (rf"или\s+нет{_END}", r"а\s+может\s+(?:и\s+)?(?:нет|не\s+быть)"), "pl": (rf"(?:czy|lub|albo)\s+nie{_END}",),
    "cs": (rf"nebo\s+ne{_END}",), "sv": (rf"eller\s+(?:kanske\s+)?inte{_END}",), "hu": (rf"vagy\s+nem{_END}",),
    "tr": (r"ya\s+da\s+değil", r"olabilir\s+de\s+olmayabilir"), "vi": (rf"hoặc\s+không{_END}",),
    "ro": (rf"sau\s+(?:poate\s+)?nu{_END}",), "fi": (rf"vai\s+(?:ei|ei\s+ole){_END}",),
    "id": (rf"atau\s+(?:tidak|bukan){_END}",), "sw": (rf"au\s+(?:la|sivyo|hapana){_END}",),
    "zh": (r"也(?:有)?可能不是|或者不是|也可能没有",), "ja": (r"そう(?:では|じゃ|で)ない(?:かもしれ|可能性)",),
    "ko": (r"아닐\s*수도\s*있", r"그렇지\s*않을\s*수도"),
    "he": (r"ו?י?יתכן\s+שלא", r"או\s+שלא", rf"או\s+לא{_END}"), "el": (rf"ή\s+όχι{_END}", r"ή\s+μπορεί\s+και\s+όχι"),
    "fa": (rf"یا\s+نه{_END}",),
    "or maybe": (r"ou\s+peut-être(?!\s+pas)", r"o\s+(?:quizás?|tal\s+vez)(?!\s+no)", r"oder\s+vielleicht(?!\s+nicht)",
                 r"o\s+forse(?!\s+no)", r"ou\s+talvez(?!\s+não)", r"или,?\s+может\s+быть", r"of\s+misschien",
                 r"albo\s+może", r"ya\s+da\s+belki", r"hoặc\s+có\s+thể",
                 r"sau\s+poate(?!\s+nu)", r"atau\s+mungkin(?!\s+(?:tidak|bukan))", r"tai\s+ehkä", r"au\s+labda",
                 r"eller\s+(?:kanskje|måske|kanske)(?!\s+ikke)", r"alebo\s+možno", r"nebo\s+možná", r"или\s+може\s+би",
                 r"или\s+можда", r"ili\s+možda", r"o\s+potser", r"o\s+baka", r"ή\s+ίσως", r"або\s+може"),
}  # fmt: skip
"""Per language: "X or not", "may be X or may not" (a binary pair's two sides at once), "X, or
maybe Y" (a second answer offered): a hedge."""
