// Portuguese (Brazilian) for every refusal code the server sends instead of a sentence.
// app/codes.py lists the codes and their params; tests/api/test_wire_codes.py checks that each
// has its entry in the English catalog. pt-lobby.js and pt-admin.js spread this file into
// their pages' catalogs; the game page loads it with its first refusal or card dialog
// (loadWords("server") in words.js).
//   - "error.<code>": a refusal, HTTP {"error": {"code", "params"}} or socket
//     {"type": "error", "code", "params"}; show t(`error.${code}`, params). The engine's
//     codes of an illegal move come as params.detail of "illegal", and have entries too.
//   - "reason.<code>": why a card option is not allowed (view.card_options[].build and
//     .wonders[]: {allowed: false, reason, ...figures}); show t(`reason.${reason}`, option).
// An error's English `message` is for logs and API users: pages show these entries. The
// effects of /api/catalog (effect_details: a kind and its figures) are worded in pt.js.
// Entries take the forms of words.js: a string with {placeholders}, or a function (params, t).

const numbers = new Intl.NumberFormat("pt");
const plurals = new Intl.PluralRules("pt");

// The singular and plural of each noun count() is asked for.
const NOUNS = {
  byte: ["byte", "bytes"],
  character: ["caractere", "caracteres"],
  minute: ["minuto", "minutos"],
  game: ["partida", "partidas"],
  spectator: ["espectador", "espectadores"],
  second: ["segundo", "segundos"],
  coin: ["moeda", "moedas"],
};

// "1 moeda", "3 moedas", "16.384 bytes".
function count(n, noun) {
  const [one, other] = NOUNS[noun];
  return `${numbers.format(n)} ${plurals.select(n) === "one" ? one : other}`;
}

// What a pending decision waits for (the view's decision.kind).
const AWAITED = {
  pick_wonder: "a escolha de uma Maravilha",
  play_card: "a jogada de uma carta",
  choose_progress: "a escolha de um marcador de progresso",
  choose_library_token: "a escolha de um marcador de progresso entre os sorteados pela Grande Biblioteca",
  destroy_card: "a escolha de uma carta do adversário para descartar",
  build_from_discard: "a construção de uma carta da pilha de descarte",
  choose_starter: "a escolha de quem começa a próxima Era",
};

export default {
  // ------------------------------------------------------------ reading a message
  "error.malformed": "O servidor não conseguiu ler uma mensagem desta página. Recarregue a página e tente de novo.",
  "error.unknown_type": "O servidor não entendeu uma mensagem desta página. Recarregue a página para obter a versão mais recente.",
  "error.too_large": ({ limit }) => `Isso é grande demais para o servidor: ele aceita no máximo ${count(limit, "byte")} de uma vez.`,

  // ------------------------------------------------------------ the connection
  "error.not_joined": "Esta página ainda não está conectada à partida. Aguarde um momento e tente de novo.",
  "error.already_joined": "Esta página já está conectada à partida.",
  "error.spectator": "Você está assistindo a esta partida: só os dois jogadores podem fazer jogadas.",
  "error.timeout": ({ cause }) => (cause === "join"
    ? "A conexão não entrou na partida a tempo e foi fechada. A página se reconecta sozinha."
    : "A conexão ficou em silêncio por tempo demais e foi fechada. A página se reconecta sozinha."),
  "error.too_slow": "Esta página ficou muito atrasada em relação à partida e foi desconectada. Ela se reconecta e se atualiza sozinha.",
  "error.busy": "O servidor está ocupado. Nada foi alterado: o envio será repetido em instantes.",
  "error.unavailable": "O servidor não consegue acessar seus registros agora. Nada foi alterado: tente de novo em instantes.",

  // ------------------------------------------------------------ games and seats
  "error.not_found": "Essa partida não existe. Confira se o link foi copiado inteiro.",
  "error.bad_invite": ({ cause }) => (cause === "missing"
    ? "Só se entra nesta partida pelo link de convite: peça o link a quem a criou."
    : "Este link de convite não é válido para esta partida: peça um novo."),
  "error.not_joinable": ({ status }) => ({
    imported: "Esta partida é um registro guardado para estudo: ninguém pode entrar nela.",
    expired: "Ninguém entrou nesta partida a tempo: ela expirou. Peça um novo convite.",
    cancelled: "Quem criou esta partida a cancelou: ninguém pode entrar nela.",
  }[status] ?? "Esta partida foi anulada: ninguém pode mais entrar nela."),
  "error.game_full": "Os dois lugares desta partida já estão ocupados.",
  "error.bad_username": "Um nome de usuário tem de 3 a 24 letras, algarismos, - ou _.",
  "error.username_taken": "Este nome de usuário já existe: escolha outro.",
  "error.weak_password": ({ cause, min, max }) => (cause === "short"
    ? `Uma senha tem pelo menos ${count(min, "character")}.`
    : cause === "common"
    ? "Essa senha é fácil demais de adivinhar (uma senha comum, uma repetição ou um padrão simples): escolha uma mais longa e menos comum."
    : `Uma senha tem no máximo ${count(max, "character")}.`),
  "error.already_registered": "Este navegador já está conectado a uma conta.",
  "error.bad_login": "Nome de usuário ou senha incorretos.",
  "error.not_registered": "Entre na sua conta primeiro.",
  "error.too_many_accounts": ({ retry_after: wait }) =>
    `Contas demais cadastradas a partir da sua rede: tente de novo em ${count(Math.ceil(wait / 60), "minute")}.`,
  "error.session_ended": "Esta conta foi desconectada em todos os lugares: entre de novo.",
  "error.rated_needs_account": "Partidas ranqueadas são entre contas: entre ou cadastre-se primeiro.",
  "error.key_reused": "Este pedido já foi feito por outra pessoa: tente de novo.",
  "error.too_many_games": ({ limit, retry_after: wait }) =>
    `Você criou ${count(limit, "game")} na última hora: tente de novo em ${count(Math.ceil(wait / 60), "minute")}.`,
  "error.too_many_joins": ({ limit, retry_after: wait }) =>
    `Você entrou em ${count(limit, "game")} na última hora: tente de novo em ${count(Math.ceil(wait / 60), "minute")}.`,
  "error.too_many_sockets": "Conexões demais a partir da sua rede: feche algumas abas e tente de novo.",
  "error.too_many_spectators": ({ limit }) => `Esta partida já tem ${count(limit, "spectator")}: tente de novo mais tarde.`,
  "error.too_fast": ({ retry_after: wait }) => `Mensagens demais de uma vez: aguarde ${count(wait, "second")}.`,
  "error.own_game": "Você já ocupa o outro lugar desta partida.",
  "error.bad_credentials": "Esta página não ocupa um lugar nesta partida. Abra a partida pelo seu próprio link ou pelo lobby.",

  // ------------------------------------------------------------ players
  "error.no_player": "Escolha um nome primeiro.",
  "error.bad_name": ({ cause, max }) => {
    if (cause === "too_long") return `Um nome tem no máximo ${count(max, "character")}.`;
    if (cause === "control") return "Um nome não pode conter caracteres de controle.";
    return "Um nome precisa de pelo menos um caractere visível.";
  },

  // ------------------------------------------------------------ moves
  "error.client_id_reused": "Esta jogada se confundiu com uma anterior e não foi feita. Tente de novo.",
  "error.not_started": "A partida ainda não começou: está aguardando um segundo jogador.",
  "error.expired": "Ninguém entrou nesta partida a tempo: ela expirou.",
  "error.aborted": "Esta partida foi anulada: não é possível fazer mais jogadas.",
  "error.abort_too_late": "Os dois jogadores já jogaram: a partida não pode mais ser anulada. Você pode desistir.",
  "error.abort_instead": "Nada está em jogo antes de os dois jogadores jogarem: anule a partida.",
  "error.imported": "Esta partida é um registro guardado para estudo: não pode ser jogada.",
  "error.game_over": "A partida terminou.",
  "error.stale_version": "A partida avançou antes de a sua jogada chegar, então ela não foi feita. Olhe a mesa de novo e escolha sua jogada.",
  "error.not_your_turn": "Não é a sua vez.",
  "error.illegal": ({ detail, ...figures }, t) => (detail
    ? t(`error.${detail}`, figures)
    : "As regras não permitem essa jogada agora."),

  // The engine's reasons for an illegal move (params.detail of "illegal").
  "error.wrong_decision": ({ decision }) => (AWAITED[decision]
    ? `Isso não é possível agora: a partida está aguardando ${AWAITED[decision]}.`
    : "Isso não é possível agora: a partida está aguardando outra coisa."),
  "error.not_offered": ({ wonder, token }) => {
    if (wonder) return "Essa Maravilha não pode ser escolhida agora.";
    if (token) return "Esse marcador de progresso não pode ser escolhido agora.";
    return "Essa carta não pode ser escolhida agora.";
  },
  "error.not_accessible": "Essa carta não pode ser pega: está coberta por outras cartas, virada para baixo ou já foi pega.",
  "error.cannot_afford": ({ price, coins }) => `Você não pode pagar: custa ${count(price, "coin")} e você tem ${count(coins, "coin")}.`,
  "error.not_your_wonder": "Essa Maravilha não é sua.",
  "error.already_built": "Essa Maravilha já está construída.",
  "error.wonder_cap": "Sete Maravilhas já foram construídas: não se pode construir mais nenhuma nesta partida.",
  "error.not_your_seat": "Você só pode agir pelo seu próprio lugar.",
  "error.cannot_take_back": "Essa ação não pode ser desfeita: não foi a sua última ação, ou ela revelou alguma coisa.",

  "error.no_take_back": "Não há pedido para desfazer em aberto (a partida pode ter avançado).",
  "error.time_out": "Tarde demais: o tempo acabou e a partida terminou.",
  "error.not_abandoned": ({ cause, wait }) => {
    if (cause === "present") return "Seu adversário voltou: a partida continua.";
    if (cause === "correspondence") return "Uma partida por correspondência termina pelo relógio.";
    if (cause === "computer") return "O computador nunca abandona uma partida.";
    return `Seu adversário saiu há pouco: você pode reivindicar a vitória em ${count(wait, "second")}.`;
  },
  "error.unknown_level": "Esse nível do computador não existe.",
  "error.computer_declines": "O computador não desfaz jogadas.",
  "error.chat_empty": "A mensagem está vazia.",
  "error.chat_too_long": ({ max }) => `Uma mensagem tem no máximo ${count(max, "character")}.`,
  "error.chat_too_fast": ({ retry_after: wait }) => `Mensagens demais: aguarde ${count(wait, "second")}.`,
  "error.chat_not_yours": ({ channel }) => (channel === "players"
    ? "Só os jogadores escrevem no chat dos jogadores." : "Os jogadores não escrevem no chat dos espectadores."),

  // ------------------------------------------------------------ rematches
  "error.not_over": "Uma revanche só pode ser proposta depois do fim da partida.",
  "error.no_offer": "Não há proposta de revanche para recusar.",
  "error.rematch_started": "A revanche já começou.",

  // ------------------------------------------------------------ requests in general
  "error.invalid_request": "O servidor não pôde aceitar esse pedido. Confira o que você digitou e tente de novo.",
  "error.method_not_allowed": "O servidor não aceita esse pedido aqui.",
  "error.bad_address": "O servidor não consegue ler esse endereço: confira se o link foi copiado certo.",
  "error.http_error": ({ http_status }) => `O servidor recusou o pedido (HTTP ${http_status}). Tente de novo.`,

  // ------------------------------------------------------------ the admin pages
  "error.admin_disabled": "As páginas de administração estão fechadas neste servidor.",
  "error.admin_required": "Entre como administrador primeiro.",
  "error.too_many_attempts": ({ wait }) => `Tentativas de login malsucedidas demais: tente de novo em ${count(wait, "second")}.`,
  "error.bad_password": "Senha incorreta.",
  "error.json_required": "O servidor só aceita este pedido em JSON.",
  "error.bad_json": "Isso não é um JSON válido.",
  "error.bad_request": "O servidor não pôde aceitar esse pedido: não é o que esta página envia.",
  "error.bad_filter": ({ field }) => (field
    ? `O filtro “${field}” não é válido.`
    : "Um dos filtros não é válido."),
  "error.bad_seq": ({ max }) => `Essa posição não existe: escolha uma de 0 a ${numbers.format(max)}.`,
  "error.bad_reason": ({ cause, max }) => {
    if (cause === "length") return `Um motivo tem de 1 a ${count(max, "character")}.`;
    if (cause === "control") return "Um motivo não pode conter caracteres de controle.";
    return "Informe o motivo como texto.";
  },
  "error.not_running": ({ status }) => {
    if (status === "finished") return "Esta partida já terminou: só uma partida em espera ou em andamento pode ser cancelada.";
    if (status === "aborted") return "Esta partida já foi cancelada.";
    return "Um registro importado não pode ser cancelado: ele nunca é jogado.";
  },
  "error.bad_record": ({ field, seq }) => {
    if (seq) return `Este registro de partida não é válido: a ação ${numbers.format(seq)} dele está errada.`;
    if (field) return `Este registro de partida não é válido: o campo “${field}” está ausente ou errado.`;
    return "Isto não é um registro de partida: um registro é o arquivo JSON que a página de uma partida exporta.";
  },
  "error.wrong_engine_version": ({ version, expected }) => (version
    ? `Este registro foi jogado na versão ${version} do motor; este servidor só reproduz a versão ${expected}.`
    : `Este registro foi jogado em outra versão do motor; este servidor só reproduz a versão ${expected}.`),
  "error.illegal_action": ({ seq }) => `A ação ${numbers.format(seq)} do registro não é permitida pelas regras naquele ponto da partida.`,
  "error.hash_mismatch": "As ações do registro não levam ao estado final que ele declara: ele foi alterado ou está incompleto.",
  "error.replay_failed": ({ seq }) => `Esta partida não pode mais ser reproduzida neste servidor: a ação ${numbers.format(seq)} dela falha.`,

  // ------------------------------------------------------------ card options
  "reason.cannot_afford": ({ price, coins }) => `Custa ${count(price, "coin")}; você tem ${count(coins, "coin")}.`,
  "reason.wonder_cap": "Sete Maravilhas já foram construídas: não se pode construir mais nenhuma.",
  "reason.not_allowed": "As regras não permitem isso agora.",
};
