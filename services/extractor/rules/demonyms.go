package rules

import "strings"

// Demonyms. English names a citizenship by the nationality adjective as often as by the country ("a Hungarian
// citizen", "holds Brazilian citizenship", "has French nationality"), but what a citizenship is of, and what
// a question about it asks for ("Which country is she a citizen of?"), is the country. countryOfDemonym maps
// the adjective back to the country's common English name.
//
// The list is the nationality adjectives of English for the world's sovereign states and a few widely used
// others (the standard forms in English dictionaries and style guides, e.g. "Dutch" for the Netherlands,
// "Emirati" for the United Arab Emirates); an adjective shared by several states ("Congolese", "Korean",
// "Guinean") is left out, since it names no one country.
var countryOfDemonym = func() map[string]string {
	pairs := []string{
		"Afghan", "Afghanistan", "Albanian", "Albania", "Algerian", "Algeria", "Andorran", "Andorra",
		"Angolan", "Angola", "Argentine", "Argentina", "Argentinian", "Argentina", "Armenian", "Armenia",
		"Australian", "Australia", "Austrian", "Austria", "Azerbaijani", "Azerbaijan", "Bahamian", "Bahamas",
		"Bahraini", "Bahrain", "Bangladeshi", "Bangladesh", "Barbadian", "Barbados", "Belarusian", "Belarus",
		"Belgian", "Belgium", "Belizean", "Belize", "Beninese", "Benin", "Bhutanese", "Bhutan",
		"Bolivian", "Bolivia", "Bosnian", "Bosnia and Herzegovina", "Botswanan", "Botswana", "Brazilian", "Brazil",
		"British", "United Kingdom", "Bruneian", "Brunei", "Bulgarian", "Bulgaria", "Burkinabe", "Burkina Faso",
		"Burundian", "Burundi", "Cambodian", "Cambodia", "Cameroonian", "Cameroon", "Canadian", "Canada",
		"Chadian", "Chad", "Chilean", "Chile", "Chinese", "China", "Colombian", "Colombia",
		"Costa Rican", "Costa Rica", "Croatian", "Croatia", "Cuban", "Cuba", "Cypriot", "Cyprus",
		"Czech", "Czech Republic", "Danish", "Denmark", "Djiboutian", "Djibouti", "Dominican", "Dominican Republic",
		"Dutch", "Netherlands", "Ecuadorian", "Ecuador", "Egyptian", "Egypt", "Emirati", "United Arab Emirates",
		"English", "England", "Eritrean", "Eritrea", "Estonian", "Estonia", "Ethiopian", "Ethiopia",
		"Fijian", "Fiji", "Filipino", "Philippines", "Finnish", "Finland", "French", "France",
		"Gabonese", "Gabon", "Gambian", "Gambia", "Georgian", "Georgia", "German", "Germany",
		"Ghanaian", "Ghana", "Greek", "Greece", "Grenadian", "Grenada", "Guatemalan", "Guatemala",
		"Guyanese", "Guyana", "Haitian", "Haiti", "Honduran", "Honduras", "Hungarian", "Hungary",
		"Icelandic", "Iceland", "Indian", "India", "Indonesian", "Indonesia", "Iranian", "Iran",
		"Iraqi", "Iraq", "Irish", "Ireland", "Israeli", "Israel", "Italian", "Italy",
		"Ivorian", "Ivory Coast", "Jamaican", "Jamaica", "Japanese", "Japan", "Jordanian", "Jordan",
		"Kazakh", "Kazakhstan", "Kazakhstani", "Kazakhstan", "Kenyan", "Kenya", "Kosovan", "Kosovo",
		"Kuwaiti", "Kuwait", "Kyrgyz", "Kyrgyzstan", "Laotian", "Laos", "Latvian", "Latvia",
		"Lebanese", "Lebanon", "Liberian", "Liberia", "Libyan", "Libya", "Liechtensteiner", "Liechtenstein",
		"Lithuanian", "Lithuania", "Luxembourgish", "Luxembourg", "Macedonian", "North Macedonia", "Malagasy", "Madagascar",
		"Malawian", "Malawi", "Malaysian", "Malaysia", "Maldivian", "Maldives", "Malian", "Mali",
		"Maltese", "Malta", "Mauritanian", "Mauritania", "Mauritian", "Mauritius", "Mexican", "Mexico",
		"Moldovan", "Moldova", "Monegasque", "Monaco", "Mongolian", "Mongolia", "Montenegrin", "Montenegro",
		"Moroccan", "Morocco", "Mozambican", "Mozambique", "Namibian", "Namibia", "Nepalese", "Nepal",
		"Nepali", "Nepal", "New Zealander", "New Zealand", "Nicaraguan", "Nicaragua", "Nigerian", "Nigeria",
		"Nigerien", "Niger", "Norwegian", "Norway", "Omani", "Oman", "Pakistani", "Pakistan",
		"Palestinian", "Palestine", "Panamanian", "Panama", "Paraguayan", "Paraguay", "Peruvian", "Peru",
		"Polish", "Poland", "Portuguese", "Portugal", "Qatari", "Qatar", "Romanian", "Romania",
		"Russian", "Russia", "Rwandan", "Rwanda", "Salvadoran", "El Salvador", "Samoan", "Samoa",
		"Saudi", "Saudi Arabia", "Scottish", "Scotland", "Senegalese", "Senegal", "Serbian", "Serbia",
		"Sierra Leonean", "Sierra Leone", "Singaporean", "Singapore", "Slovak", "Slovakia", "Slovenian", "Slovenia",
		"Somali", "Somalia", "South African", "South Africa", "Spanish", "Spain", "Sri Lankan", "Sri Lanka",
		"Sudanese", "Sudan", "Surinamese", "Suriname", "Swedish", "Sweden", "Swiss", "Switzerland",
		"Syrian", "Syria", "Taiwanese", "Taiwan", "Tajik", "Tajikistan", "Tanzanian", "Tanzania",
		"Thai", "Thailand", "Togolese", "Togo", "Tongan", "Tonga", "Trinidadian", "Trinidad and Tobago",
		"Tunisian", "Tunisia", "Turkish", "Turkey", "Turkmen", "Turkmenistan", "Ugandan", "Uganda",
		"Ukrainian", "Ukraine", "Uruguayan", "Uruguay", "Uzbek", "Uzbekistan", "Venezuelan", "Venezuela",
		"Vietnamese", "Vietnam", "Welsh", "Wales", "Yemeni", "Yemen", "Zambian", "Zambia",
		"Zimbabwean", "Zimbabwe", "American", "United States of America", "Soviet", "Soviet Union",
	}
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[strings.ToLower(pairs[i])] = pairs[i+1]
	}
	return m
}()

// countryOf returns the country a nationality adjective names ("Hungarian" → "Hungary"), or "" when the word is
// none.
func countryOf(adjective string) string {
	return countryOfDemonym[strings.ToLower(strings.TrimSpace(adjective))]
}
